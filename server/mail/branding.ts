import type { Kysely } from 'kysely';

/** The project's look in e-mails: name, logo and brand colour from settings. */
export interface Branding {
  name: string;
  /** Absolute URL of settings.project_logo under PUBLIC_URL, or null without a logo. */
  logoUrl: string | null;
  /** A CSS hex colour; anything else in settings.project_color falls back to the default. */
  color: string;
}

/** The colour the settings table starts with. */
export const DEFAULT_PROJECT_COLOR = '#6644FF';

const HEX_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** Reads the branding from the settings singleton; defaults when the row is missing. */
export async function readBranding(db: Kysely<any>, publicUrl: string): Promise<Branding> {
  const row = await db.selectFrom('tessera_settings').select(['project_name', 'project_logo', 'project_color']).executeTakeFirst();
  const color = typeof row?.project_color === 'string' && HEX_COLOR.test(row.project_color) ? row.project_color : DEFAULT_PROJECT_COLOR;
  return {
    name: typeof row?.project_name === 'string' && row.project_name.trim() ? row.project_name : 'Tessera',
    logoUrl: row?.project_logo ? `${publicUrl}/assets/${encodeURIComponent(String(row.project_logo))}` : null,
    color,
  };
}
