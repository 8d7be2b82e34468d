/** The files `tessera extensions create <type> <name>` writes, by kind; `{{name}}` is the extension's name. */
export const STARTERS: Record<'hook' | 'endpoint' | 'operation', Record<string, string>> = {
  hook: {
    'src/index.ts': `// A hook: filters run inside a write and may change or refuse it; actions run after it committed.
// Event names, handler arguments and the context are Directus's (docs/extensions.md).

type Payload = Record<string, unknown>;
type Meta = { event: string; collection: string; key?: string | number; keys?: Array<string | number>; payload?: unknown };

interface Register {
  filter(event: string, handler: (payload: Payload, meta: Meta, context: { accountability: { user: string | null } | null }) => Payload | void | Promise<Payload | void>): void;
  action(event: string, handler: (meta: Meta) => void | Promise<void>): void;
  schedule(cron: string, handler: () => void | Promise<void>): void;
}

interface Context {
  logger: { info(message: string): void };
}

export default ({ filter, action }: Register, { logger }: Context) => {
  filter('items.create', (payload, meta) => {
    logger.info(\`{{name}}: creating an item of \${meta.collection}\`);
    return payload;
  });
  action('items.create', ({ collection, key }) => logger.info(\`{{name}}: created \${collection} \${String(key)}\`));
};
`,
  },
  endpoint: {
    'src/index.ts': `// An endpoint: an Express router answering under /{{name}} (docs/extensions.md).

interface Request {
  accountability: { user: string | null; admin: boolean } | null;
  query: Record<string, unknown>;
  body: unknown;
}
interface Response {
  json(body: unknown): void;
  status(code: number): Response;
}
interface Router {
  get(path: string, handler: (req: Request, res: Response) => void | Promise<void>): void;
}

export default {
  id: '{{name}}',
  handler: (router: Router) => {
    router.get('/', (req, res) => res.json({ hello: req.accountability?.user ?? 'anonymous' }));
  },
};
`,
  },
  operation: {
    'src/api.ts': `// An operation: a flow operation type named "{{name}}". Its options arrive rendered with the flow's templating.

export default {
  id: '{{name}}',
  handler: (options: { text?: string }, { data }: { data: Record<string, unknown> }) => ({ text: String(options.text ?? ''), trigger: data.$trigger ?? null }),
};
`,
    'src/app.ts': `// What the flow editor shows for this operation.

export default {
  id: '{{name}}',
  name: '{{name}}',
  icon: 'bolt',
  description: 'Describe what {{name}} does.',
  options: [{ field: 'text', name: 'Text', type: 'string', meta: { interface: 'input', width: 'full' } }],
};
`,
  },
};
