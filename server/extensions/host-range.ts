import semver from 'semver';
import { packageVersion } from '../version.ts';
import type { ExtensionManifest } from '../extension-packages/manifest.ts';

/** The Directus releases whose extension API Tessera implements (docs/extensions.md, "Differences"). */
export const DIRECTUS_API_RANGE = '9.x || 10.x || 11.x';

/**
 * Why this Tessera cannot run the extension, or null when it can. A Directus `host` range must admit some
 * Directus release whose extension API Tessera implements; a `tessera:extension` range must admit this version.
 */
export function hostMismatch(manifest: ExtensionManifest): string | null {
  if (!manifest.host) return null;
  if (!semver.validRange(manifest.host)) return `Its host range "${manifest.host}" is not a valid semver range.`;
  if (manifest.spelling === 'tessera') {
    return semver.satisfies(packageVersion(), manifest.host, { includePrerelease: true }) ? null : `It needs Tessera ${manifest.host}; this is Tessera ${packageVersion()}.`;
  }
  return semver.intersects(manifest.host, DIRECTUS_API_RANGE) ? null : `It needs Directus ${manifest.host}; Tessera implements the extension API of Directus ${DIRECTUS_API_RANGE}.`;
}
