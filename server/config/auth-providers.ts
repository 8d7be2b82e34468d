import { AUTH_DRIVERS, type AuthDriver, DRIVER_SCHEMAS, driverVariableSuffixes, ldapVariablesSchema, oauth2VariablesSchema, openidVariablesSchema, samlVariablesSchema, VARIABLE_ALIASES } from './auth-provider-variables.ts';
import { readVariables, reportInvalidVariables } from './read-variables.ts';
import type * as yup from 'yup';

type Env = Record<string, string | undefined>;

/** What every sign-in provider has (docs/auth.md, "Sign-in providers"). */
interface ProviderBase {
  /** Lowercase name, used in routes and stored in users.provider. */
  name: string;
  label: string;
  icon: string | null;
  allowPublicRegistration: boolean;
  defaultRoleId: string | null;
  /** Update e-mail and names from the profile on every sign-in. */
  syncUserInfo: boolean;
  /** Profile fields: the identifier, e-mail, first and last name (null: not read). */
  identifierKey: string;
  emailKey: string;
  firstNameKey: string | null;
  lastNameKey: string | null;
  redirectAllowList: string[];
}

/** An OpenID Connect provider, found through discovery. */
export interface OpenIdProviderConfig extends ProviderBase {
  driver: 'openid';
  issuerUrl: string;
  clientId: string;
  /** Null for a public client (PKCE only). */
  clientSecret: string | null;
  scope: string;
}

/** A plain OAuth 2.0 provider (GitHub, …): the endpoints are configured, the profile comes from PROFILE_URL. */
export interface OAuth2ProviderConfig extends ProviderBase {
  driver: 'oauth2';
  clientId: string;
  clientSecret: string | null;
  authorizeUrl: string;
  accessUrl: string;
  profileUrl: string;
  scope: string;
}

/** A directory: people type an identifier and password, checked by binding as them. */
export interface LdapProviderConfig extends ProviderBase {
  driver: 'ldap';
  clientUrl: string;
  startTls: boolean;
  tlsCa: string | null;
  tlsRejectUnauthorized: boolean;
  bindDn: string;
  bindPassword: string;
  userDn: string;
  userAttribute: string;
  userScope: 'base' | 'one' | 'sub';
  groupDn: string | null;
  groupAttribute: string;
  groupScope: 'base' | 'one' | 'sub';
}

/** A SAML 2.0 identity provider. */
export interface SamlProviderConfig extends ProviderBase {
  driver: 'saml';
  spMetadata: string;
  idpMetadata: string;
}

/** One sign-in provider, from AUTH_<NAME>_*. */
export type AuthProviderConfig = OpenIdProviderConfig | OAuth2ProviderConfig | LdapProviderConfig | SamlProviderConfig;

/** Names a provider may not take: the other sign-in methods' and local users' (users.provider = default). */
const RESERVED_PROVIDER_NAMES = ['default', 'email', 'credentials'];

/**
 * Reads and validates AUTH_<NAME>_* (with `_FILE` twins) for every provider AUTH_PROVIDERS names; every
 * bad variable is added to `problems`, so one start-up error names them all.
 */
export function readAuthProviders(env: Env, names: string[], problems: string[]): AuthProviderConfig[] {
  const providers: AuthProviderConfig[] = [];
  const seen = new Set<string>();
  for (const given of names) {
    const name = given.toLowerCase();
    if (!/^[a-z][a-z0-9_]*$/.test(name) || RESERVED_PROVIDER_NAMES.includes(name) || seen.has(name)) {
      problems.push(`AUTH_PROVIDERS: "${given}" must be a unique name of letters, digits and _ starting with a letter, other than ${RESERVED_PROVIDER_NAMES.join(', ')}`);
      continue;
    }
    seen.add(name);
    const prefix = `AUTH_${name.toUpperCase()}_`;
    const driver = (env[`${prefix}DRIVER`] || 'openid').toLowerCase();
    if (!(AUTH_DRIVERS as readonly string[]).includes(driver)) {
      problems.push(`${prefix}DRIVER: must be one of ${AUTH_DRIVERS.join(', ')} (got ${JSON.stringify(env[`${prefix}DRIVER`])})`);
      continue;
    }
    const raw = readVariables(withAliases(env, prefix), driverVariableSuffixes(driver as AuthDriver), problems, prefix);
    raw.DRIVER = driver;
    try {
      providers.push(toProvider(name, driver as AuthDriver, raw));
    } catch (error) {
      reportInvalidVariables(error, raw, problems, prefix);
    }
  }
  return providers;
}

/** `env` with Directus's lower-case spellings (AUTH_<NAME>_SP_metadata) under the upper-case names. */
function withAliases(env: Env, prefix: string): Env {
  const copy = { ...env };
  for (const [name, alias] of Object.entries(VARIABLE_ALIASES)) {
    for (const suffix of ['', '_FILE']) {
      if (copy[`${prefix}${name}${suffix}`] === undefined && env[`${prefix}${alias}${suffix}`] !== undefined) copy[`${prefix}${name}${suffix}`] = env[`${prefix}${alias}${suffix}`];
    }
  }
  return copy;
}

function validate<S extends yup.AnyObjectSchema>(schema: S, raw: Env): yup.InferType<S> {
  return schema.validateSync(raw, { abortEarly: false, stripUnknown: true });
}

function toProvider(name: string, driver: AuthDriver, raw: Env): AuthProviderConfig {
  const common = (vars: yup.InferType<(typeof DRIVER_SCHEMAS)[AuthDriver]>) => ({
    name,
    label: vars.LABEL ?? name.charAt(0).toUpperCase() + name.slice(1),
    icon: vars.ICON ?? null,
    allowPublicRegistration: vars.ALLOW_PUBLIC_REGISTRATION,
    defaultRoleId: vars.DEFAULT_ROLE_ID ?? null,
    syncUserInfo: vars.SYNC_USER_INFO,
    redirectAllowList: 'REDIRECT_ALLOW_LIST' in vars ? vars.REDIRECT_ALLOW_LIST : [],
  });
  switch (driver) {
    case 'openid': {
      const vars = validate(openidVariablesSchema, raw);
      return {
        ...common(vars),
        driver,
        issuerUrl: vars.ISSUER_URL,
        clientId: vars.CLIENT_ID,
        clientSecret: vars.CLIENT_SECRET ?? null,
        scope: vars.SCOPE,
        identifierKey: vars.IDENTIFIER_KEY,
        emailKey: vars.EMAIL_KEY,
        firstNameKey: vars.FIRST_NAME_KEY,
        lastNameKey: vars.LAST_NAME_KEY,
      };
    }
    case 'oauth2': {
      const vars = validate(oauth2VariablesSchema, raw);
      return {
        ...common(vars),
        driver,
        clientId: vars.CLIENT_ID,
        clientSecret: vars.CLIENT_SECRET ?? null,
        authorizeUrl: vars.AUTHORIZE_URL,
        accessUrl: vars.ACCESS_URL,
        profileUrl: vars.PROFILE_URL,
        scope: vars.SCOPE,
        identifierKey: vars.IDENTIFIER_KEY,
        emailKey: vars.EMAIL_KEY,
        firstNameKey: vars.FIRST_NAME_KEY ?? null,
        lastNameKey: vars.LAST_NAME_KEY ?? null,
      };
    }
    case 'ldap': {
      const vars = validate(ldapVariablesSchema, raw);
      return {
        ...common(vars),
        driver,
        clientUrl: vars.CLIENT_URL.replace(/\/$/, ''),
        startTls: vars.CLIENT_START_TLS,
        tlsCa: vars.CLIENT_TLS_CA ?? null,
        tlsRejectUnauthorized: vars.CLIENT_TLS_REJECT_UNAUTHORIZED,
        bindDn: vars.BIND_DN,
        bindPassword: vars.BIND_PASSWORD,
        userDn: vars.USER_DN,
        userAttribute: vars.USER_ATTRIBUTE,
        userScope: vars.USER_SCOPE as LdapProviderConfig['userScope'],
        groupDn: vars.GROUP_DN ?? null,
        groupAttribute: vars.GROUP_ATTRIBUTE,
        groupScope: vars.GROUP_SCOPE as LdapProviderConfig['groupScope'],
        // An LDAP user is identified by their DN; the profile fields are the attributes.
        identifierKey: 'dn',
        emailKey: vars.MAIL_ATTRIBUTE,
        firstNameKey: vars.FIRST_NAME_ATTRIBUTE,
        lastNameKey: vars.LAST_NAME_ATTRIBUTE,
      };
    }
    case 'saml': {
      const vars = validate(samlVariablesSchema, raw);
      return {
        ...common(vars),
        driver,
        spMetadata: vars.SP_METADATA,
        idpMetadata: vars.IDP_METADATA,
        identifierKey: vars.IDENTIFIER_KEY,
        emailKey: vars.EMAIL_KEY,
        firstNameKey: vars.GIVEN_NAME_KEY,
        lastNameKey: vars.FAMILY_NAME_KEY,
      };
    }
  }
}
