import type { Kysely } from 'kysely';
import { parseHttpUrl } from '../auth/http-url.ts';

/** The project's look in e-mails and on the sign-in pages, from settings. */
export interface Branding {
  name: string;
  /** settings.project_descriptor (a short tagline), or null. */
  descriptor: string | null;
  /** settings.project_url when it is an http(s) URL (anything else is never made a link), or null. */
  projectUrl: string | null;
  /** Absolute URL of settings.project_logo under PUBLIC_URL, or null without a logo. */
  logoUrl: string | null;
  /** Absolute asset URLs of settings.public_foreground, public_background and public_favicon, or null. */
  foregroundUrl: string | null;
  backgroundUrl: string | null;
  faviconUrl: string | null;
  /** A CSS hex colour; anything else in settings.project_color falls back to the default. */
  color: string;
}

/** The colour the settings table starts with. */
export const DEFAULT_PROJECT_COLOR = '#6644FF';

const HEX_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

const COLUMNS = ['project_name', 'project_descriptor', 'project_url', 'project_logo', 'project_color', 'public_foreground', 'public_background', 'public_favicon'] as const;

/** Reads the branding from the settings singleton; defaults when the row is missing. */
export async function readBranding(db: Kysely<any>, publicUrl: string): Promise<Branding> {
  const row: Partial<Record<(typeof COLUMNS)[number], unknown>> | undefined = await db.selectFrom('tessera_settings').select([...COLUMNS]).executeTakeFirst();
  const color = typeof row?.project_color === 'string' && HEX_COLOR.test(row.project_color) ? row.project_color : DEFAULT_PROJECT_COLOR;
  // These images are readable without a token (assets-controller's public project images).
  const asset = (id: unknown) => (id ? `${publicUrl}/assets/${encodeURIComponent(String(id))}` : null);
  return {
    name: typeof row?.project_name === 'string' && row.project_name.trim() ? row.project_name : 'Tessera',
    descriptor: typeof row?.project_descriptor === 'string' && row.project_descriptor.trim() ? row.project_descriptor.trim() : null,
    projectUrl: typeof row?.project_url === 'string' ? (parseHttpUrl(row.project_url.trim())?.href ?? null) : null,
    logoUrl: asset(row?.project_logo),
    foregroundUrl: asset(row?.public_foreground),
    backgroundUrl: asset(row?.public_background),
    faviconUrl: asset(row?.public_favicon),
    color,
  };
}
