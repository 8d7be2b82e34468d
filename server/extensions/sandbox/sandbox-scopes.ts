import * as yup from 'yup';

/** HTTP methods a sandboxed extension may ask `request` for (Directus's list). */
export const REQUEST_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type RequestMethod = (typeof REQUEST_METHODS)[number];

/** What `items` lets a sandboxed extension do (Tessera offers reads only). */
export const ITEM_METHODS = ['read'] as const;

/** The capabilities a sandboxed extension asked for in `sandbox.requestedScopes`; an absent key is not granted. */
export interface SandboxScopes {
  request?: { urls: string[]; methods: RequestMethod[] };
  log?: Record<string, never>;
  sleep?: Record<string, never>;
  /** Tessera's scope: read items of the listed collections (Directus spells system collections `directus_*`). */
  items?: { collections: string[]; methods: Array<(typeof ITEM_METHODS)[number]> };
}

/** The names `directus:api` exports, each tied to the scope that grants it. */
export const SDK_FUNCTIONS = { log: 'log', sleep: 'sleep', request: 'request', readItems: 'items' } as const;
export type SdkFunction = keyof typeof SDK_FUNCTIONS;

const scopesSchema = yup
  .object({
    request: yup
      .object({
        urls: yup.array(yup.string().required()).required('is required'),
        methods: yup.array(yup.string().oneOf([...REQUEST_METHODS], `must each be one of ${REQUEST_METHODS.join(', ')}`).required()).required('is required'),
      })
      .default(undefined),
    log: yup.object().default(undefined),
    sleep: yup.object().default(undefined),
    items: yup
      .object({
        collections: yup.array(yup.string().required()).required('is required'),
        methods: yup.array(yup.string().oneOf([...ITEM_METHODS], `must each be one of ${ITEM_METHODS.join(', ')}`).required()).required('is required'),
      })
      .default(undefined),
  })
  .noUnknown(true, 'has an unknown scope: ${unknown} (known: request, log, sleep, items)');

/** Validates `sandbox.requestedScopes`; the error names the key that is wrong. */
export function parseScopes(raw: Record<string, unknown>): SandboxScopes {
  try {
    return scopesSchema.validateSync(raw, { abortEarly: true, stripUnknown: false }) as SandboxScopes;
  } catch (error) {
    const failure = error as yup.ValidationError;
    throw new TypeError(`"sandbox.requestedScopes${failure.path ? `.${failure.path}` : ''}" ${failure.message.replace(/^this /, '')}`);
  }
}

/** Whether a URL matches one of the requested patterns: `*` stands for any run of characters, the rest is literal (as Directus's globs). */
export function urlAllowed(patterns: readonly string[], url: string): boolean {
  return patterns.some((pattern) => new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`).test(url));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
