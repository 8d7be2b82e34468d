import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as yup from 'yup';

/** Extension kinds that run on the server. */
export const API_TYPES = ['hook', 'endpoint', 'operation'] as const;
/** Extension kinds that run in the admin (Tessera's own, React). */
export const APP_TYPES = ['interface', 'display', 'layout', 'panel', 'module'] as const;
/** Every kind a manifest may name; a bundle holds several of the others. */
export const EXTENSION_TYPES = [...API_TYPES, ...APP_TYPES, 'bundle'] as const;

export type ApiExtensionType = (typeof API_TYPES)[number];
export type AppExtensionType = (typeof APP_TYPES)[number];
export type ExtensionType = (typeof EXTENSION_TYPES)[number];

/** One extension inside a bundle: its kind and name (the bundle's api entry exports it under that name). */
export interface BundleEntry {
  type: ApiExtensionType | AppExtensionType;
  name: string;
}

/** What an extension's package.json says about it, with entry paths made absolute. */
export interface ExtensionManifest {
  /** The package name. */
  name: string;
  version: string;
  type: ExtensionType;
  /** Which key described it: `directus:extension` (host range of Directus) or `tessera:extension` (of Tessera). */
  spelling: 'directus' | 'tessera';
  host: string | null;
  /** Absolute path of the server entry, if it has one. */
  api: string | null;
  /** Absolute path of the admin entry, if it has one. */
  app: string | null;
  entries: BundleEntry[];
  sandbox: { enabled: boolean; requestedScopes: Record<string, unknown> } | null;
}

/** A manifest that cannot be used, with what is wrong. */
export class ManifestError extends Error {
  override name = 'ManifestError';
}

const entryPath = yup.lazy((value: unknown) =>
  typeof value === 'string'
    ? yup.string().required()
    : yup.object({ app: yup.string().optional(), api: yup.string().optional() }).noUnknown(false).required('must be a path or { app, api }'),
);

const manifestSchema = yup.object({
  type: yup.string().oneOf([...EXTENSION_TYPES], `must be one of ${EXTENSION_TYPES.join(', ')}`).required('is required'),
  path: entryPath,
  source: yup.mixed().optional(),
  host: yup.string().optional(),
  entries: yup
    .array(yup.object({ type: yup.string().oneOf([...API_TYPES, ...APP_TYPES], `must be one of ${[...API_TYPES, ...APP_TYPES].join(', ')}`).required(), name: yup.string().required() }))
    .optional(),
  sandbox: yup.object({ enabled: yup.boolean().default(false), requestedScopes: yup.object().default({}) }).optional().default(undefined),
});

/** Reads `<folder>/package.json` and validates its extension description. */
export async function readManifest(folder: string): Promise<ExtensionManifest> {
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new ManifestError(`package.json cannot be read: ${(error as Error).message}`);
  }
  return parseManifest(folder, pkg);
}

/** Validates a package.json's `tessera:extension` (preferred) or `directus:extension` key. */
export function parseManifest(folder: string, pkg: Record<string, unknown>): ExtensionManifest {
  const spelling = Object.hasOwn(pkg, 'tessera:extension') ? 'tessera' : Object.hasOwn(pkg, 'directus:extension') ? 'directus' : null;
  if (!spelling) throw new ManifestError('package.json has no "directus:extension" or "tessera:extension" key.');
  const key = `${spelling}:extension`;
  let described: yup.InferType<typeof manifestSchema>;
  try {
    described = manifestSchema.validateSync(pkg[key], { abortEarly: true });
  } catch (error) {
    const failure = error as yup.ValidationError;
    throw new ManifestError(`"${key}${failure.path ? `.${failure.path}` : ''}" ${failure.message}`);
  }
  const type = described.type as ExtensionType;
  const paths = typeof described.path === 'string' ? side(type, described.path) : (described.path as { app?: string; api?: string });
  const resolve = (entry: string | undefined) => (entry ? path.resolve(folder, entry) : null);
  const api = resolve(paths.api);
  const app = resolve(paths.app);
  for (const entry of [api, app]) {
    if (entry && !isInside(folder, entry)) throw new ManifestError(`"${key}.path" must stay inside the extension's folder.`);
  }
  if (type === 'bundle' && !described.entries) throw new ManifestError(`"${key}.entries" is required for a bundle.`);
  if ((type === 'hook' || type === 'endpoint') && !api) throw new ManifestError(`"${key}.path" must name the server entry of a ${type}.`);
  return {
    name: typeof pkg.name === 'string' && pkg.name !== '' ? pkg.name : path.basename(folder),
    version: typeof pkg.version === 'string' ? pkg.version : '0.0.0',
    type,
    spelling,
    host: described.host ?? null,
    api,
    app,
    entries: (described.entries ?? []) as BundleEntry[],
    sandbox: described.sandbox ? { enabled: described.sandbox.enabled === true, requestedScopes: described.sandbox.requestedScopes as Record<string, unknown> } : null,
  };
}

/** A plain `path` string is the server entry of server kinds and the admin entry of admin kinds. */
function side(type: ExtensionType, entry: string): { app?: string; api?: string } {
  return (APP_TYPES as readonly string[]).includes(type) ? { app: entry } : { api: entry };
}

function isInside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
