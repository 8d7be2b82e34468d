import type { AppContext } from '../../app-context.ts';
export async function getSchema(_app: AppContext, _options?: { database?: unknown }): Promise<Record<string, unknown>> {
  return { collections: {}, relations: [] };
}
