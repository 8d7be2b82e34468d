import type { AppContext } from '../../app-context.ts';
import type { AuthProviderConfig } from '../../config/load-config.ts';
import type { AuthDriver } from '../../config/auth-provider-variables.ts';
import { RouteNotFoundError } from '../../errors.ts';

/** What the sign-in page, `GET /auth` and `GET /auth/providers` show of a provider: never its options. */
export interface ProviderSummary {
  name: string;
  driver: AuthDriver;
  label: string;
  icon: string | null;
}

/** The configured sign-in providers, in AUTH_PROVIDERS order. */
export function listProviders(app: AppContext): ProviderSummary[] {
  return app.config.auth.providers.map(({ name, driver, label, icon }) => ({ name, driver, label, icon }));
}

/** The provider called `name`; an unknown name is a 404, as for any route that does not exist. */
export function findProvider(app: AppContext, name: string): AuthProviderConfig {
  const provider = app.config.auth.providers.find((candidate) => candidate.name === name.toLowerCase());
  if (!provider) throw new RouteNotFoundError(`Sign-in provider "${name}" doesn't exist.`);
  return provider;
}
