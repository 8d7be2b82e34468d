import { buildAdmin, isAdminBuildStale } from '../../server/admin-build.ts';
import templateSetup from '../helpers/global-setup.ts';
import type { TestProject } from 'vitest/node';

/** Builds the admin once for the browser tests (when stale), then prepares the template database. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (isAdminBuildStale()) {
    const size = await buildAdmin();
    console.log(`admin built: initial JS ${(size.bytes / 1000).toFixed(1)} kB (gzip ${(size.gzipBytes / 1000).toFixed(1)} kB)`);
  }
  return templateSetup(project);
}
