import { apiData } from '../providers/http-client.ts';
import { REGISTRIES, type AppExtensionKind } from './kinds.ts';
import { extensionHost } from './sdk.ts';

/** An admin extension as GET /extensions/app lists it. */
interface ListedAppExtension {
  id: string;
  name: string;
  type: string;
  entry: string;
}

/** How loading went, per extension (shown on Settings → Extensions and in the console). */
export interface AppExtensionOutcome {
  name: string;
  registered: string[];
  error: string | null;
}

let loading: Promise<AppExtensionOutcome[]> | null = null;

/**
 * Imports every admin extension the server lists (an ES module whose default export is a definition, a list
 * of them, or a function of the host — React, antd, Tessera's SDK — returning either) and registers each
 * definition in the registry of its `type`. Runs once per page; an extension that fails is reported and
 * skipped, the admin goes on.
 */
export function loadAppExtensions(): Promise<AppExtensionOutcome[]> {
  loading ??= load();
  return loading;
}

async function load(): Promise<AppExtensionOutcome[]> {
  let listed: ListedAppExtension[];
  try {
    listed = (await apiData<ListedAppExtension[]>('/extensions/app')) ?? [];
  } catch {
    return [];
  }
  return Promise.all(listed.map(loadOne));
}

async function loadOne(extension: ListedAppExtension): Promise<AppExtensionOutcome> {
  const outcome: AppExtensionOutcome = { name: extension.name, registered: [], error: null };
  try {
    const module = (await import(/* @vite-ignore */ extension.entry)) as { default?: unknown };
    const exported = typeof module.default === 'function' ? await (module.default as (host: typeof extensionHost) => unknown)(extensionHost) : module.default;
    const definitions = (Array.isArray(exported) ? exported : [exported]) as Array<{ type?: unknown; id?: unknown; component?: unknown }>;
    for (const definition of definitions) {
      const kind = (definition?.type ?? (extension.type !== 'bundle' ? extension.type : undefined)) as AppExtensionKind | undefined;
      if (!kind || !Object.hasOwn(REGISTRIES, kind)) throw new Error(`A definition has no known type (interface, display, layout, panel or module).`);
      if (typeof definition.id !== 'string' || definition.id === '') throw new Error(`A ${kind} needs an id.`);
      if (typeof definition.component !== 'function' && typeof definition.component !== 'object') throw new Error(`The ${kind} "${definition.id}" has no component.`);
      // `builtIn` is Tessera's own modules' and layouts' mark (their names are message keys): never an extension's.
      (REGISTRIES[kind] as { register(entry: unknown): () => void }).register({ name: definition.id, ...definition, builtIn: false });
      outcome.registered.push(`${kind}:${definition.id}`);
    }
  } catch (error) {
    outcome.error = (error as Error)?.message ?? String(error);
    console.warn(`The admin extension "${extension.name}" was not loaded:`, error);
  }
  return outcome;
}
