import type { Command } from 'commander';
import { loadConfig } from '../server/config/index.ts';
import { discoverExtensions } from '../server/extension-packages/discover.ts';
import { openSystemContext } from './context.ts';

/**
 * Lets hook extensions add CLI commands as Directus's do: when the project has a hook (alone or in a bundle),
 * its extensions are loaded for the CLI (no schedules) and their `cli.before` and `cli.after` init handlers
 * get `{ program }`, the commander program. Returns how to close what was opened, or null when the project
 * has no hook. Only runs for commands Tessera does not declare, so built-in commands start as fast as ever.
 */
export async function addExtensionCommands(program: Command): Promise<(() => Promise<void>) | null> {
  const config = loadConfig(process.env);
  const found = await discoverExtensions(config.extensions.path, config.extensions.projectDir);
  const hasHook = found.some(({ manifest }) => manifest?.type === 'hook' || manifest?.entries.some((entry) => entry.type === 'hook'));
  if (!hasHook) return null;
  const context = await openSystemContext(config);
  try {
    await context.app.extensions.load({ cli: true });
    await context.app.extensions.runInit('cli.before', { program });
    await context.app.extensions.runInit('cli.after', { program });
  } catch (error) {
    await context.close();
    throw error;
  }
  return context.close;
}
