/**
 * Per-scenario CPU profiles of the server process: the server runs with `--inspect=127.0.0.1:0`, and the
 * benchmark drives the V8 profiler over the inspector's WebSocket around each measured window, so a
 * profile holds exactly one scenario (not the seeding). `summarize` turns a profile into self and
 * inclusive time per function and per package.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A CDP session with the server's inspector. */
export interface Inspector {
  start(): Promise<void>;
  stop(): Promise<CpuProfile>;
  close(): void;
}

export async function connectInspector(wsUrl: string, samplingIntervalUs = 250): Promise<Inspector> {
  const socket = new WebSocket(wsUrl);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`cannot connect to the inspector at ${wsUrl}`)), { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: any) => void; reject: (error: Error) => void }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return;
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiter?.reject(new Error(message.error.message));
    else waiter?.resolve(message.result);
  });
  const send = <T>(method: string, params: object = {}): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: samplingIntervalUs });
  return {
    start: () => send('Profiler.start'),
    stop: async () => (await send<{ profile: CpuProfile }>('Profiler.stop')).profile,
    close: () => socket.close(),
  };
}

/** Where a function lives: a package, a Tessera file, a Node internal module, or a V8 pseudo-frame. */
export function category(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : `(native) ${functionName || 'anonymous'}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  const own = /\/(server|cli|bin)\/(.*)$/.exec(url);
  if (own) return `tessera ${own[1]}/${own[2]}`;
  return url;
}

/**
 * Buckets for "where does a request's CPU go": each sample goes to the first rule matched walking from
 * the leaf frame towards the root, so native frames and Node internals (writev, HMAC jobs) land with the
 * library that called them; a stack of Node internals only (socket reads, timers) is its own bucket.
 */
const BUCKETS: Array<[string, (url: string, fn: string) => boolean]> = [
  ['GC', (_url, fn) => fn === '(garbage collector)'],
  ['request id (randomUUID)', (url) => url.includes('/middleware/request-id.ts')],
  ['logging (pino child + request log)', (url) => url.includes('node_modules/pino') || url.includes('/middleware/request-logger.ts')],
  ['JWT verify (jose, WebCrypto HMAC)', (url) => url.includes('node_modules/jose') || url.includes('/auth/access-token.ts') || /^node:internal\/crypto\/(webcrypto|keys|util|mac|hash)/.test(url)],
  ['pg driver (send query, receive + JSON.parse rows)', (url) => /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-)/.test(url)],
  ['query string (qs)', (url) => url.includes('node_modules/qs/')],
  ['Tessera query parse/compile', (url) => url.includes('/server/query/')],
  ['Kysely (build + compile SQL)', (url) => url.includes('node_modules/kysely')],
  ['MikroORM', (url) => url.includes('node_modules/@mikro-orm')],
  ['yup validation', (url) => url.includes('node_modules/yup')],
  ['Tessera services (items, activity)', (url) => url.includes('/server/services/')],
  ['HTTP (Koa, parse request, JSON.stringify + write response)', (url) => /node_modules\/(koa|@koa|koa-body|koa-compose|co-body|raw-body|delegates|statuses|on-finished|accepts|type-is|content-type|cookies|http-errors|fresh|vary|encodeurl|escape-html|depd|destroy|inflation|formidable)/.test(url) || url.startsWith('node:_http') || url === 'node:http'],
  ['Tessera middleware/controllers', (url) => url.includes('/server/')],
];

function bucketOf(stack: CallFrame[]): string {
  for (const frame of stack) {
    for (const [name, test] of BUCKETS) if (test(frame.url, frame.functionName)) return name;
  }
  if (stack.some((frame) => frame.url.startsWith('node:'))) return 'node internals (socket reads, streams, timers)';
  return stack[0]?.functionName.startsWith('(') ? stack[0].functionName : 'other';
}

export interface ProfileSummary {
  totalMs: number;
  busyMs: number;
  byBucket: Array<{ name: string; selfMs: number; selfPercent: number }>;
  byCategory: Array<{ name: string; selfMs: number; selfPercent: number }>;
  topSelf: Array<{ name: string; selfMs: number; selfPercent: number }>;
  topInclusive: Array<{ name: string; totalMs: number; totalPercent: number }>;
}

/** Self time per function and per category, and inclusive time per function; percentages of busy time. */
export function summarize(profile: CpuProfile, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (frame: CallFrame) => `${frame.functionName || '(anonymous)'} ${frame.url ? `${frame.url.replace(/^file:\/\/.*?\/(node_modules|server|cli|bin)\//, '$1/')}:${frame.lineNumber + 1}` : ''}`.trim();
  const self = new Map<string, number>();
  const categories = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const buckets = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    totalUs += delta;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') {
      idleUs += delta;
      return;
    }
    const name = label(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + delta);
    const cat = category(node.callFrame);
    categories.set(cat, (categories.get(cat) ?? 0) + delta);
    const stack: CallFrame[] = [];
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) stack.push(byId.get(current)!.callFrame);
    const bucket = bucketOf(stack);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + delta);
    const seen = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const frameName = label(byId.get(current)!.callFrame);
      if (seen.has(frameName)) continue;
      seen.add(frameName);
      inclusive.set(frameName, (inclusive.get(frameName) ?? 0) + delta);
    }
  });
  const busyUs = totalUs - idleUs;
  const ms = (us: number) => Math.round(us / 100) / 10;
  const pct = (us: number) => Math.round((us / Math.max(1, busyUs)) * 1000) / 10;
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return {
    totalMs: ms(totalUs),
    busyMs: ms(busyUs),
    byBucket: sorted(buckets).map(([name, us]) => ({ name, selfMs: ms(us), selfPercent: pct(us) })),
    byCategory: sorted(categories).slice(0, top).map(([name, us]) => ({ name, selfMs: ms(us), selfPercent: pct(us) })),
    topSelf: sorted(self).slice(0, top).map(([name, us]) => ({ name, selfMs: ms(us), selfPercent: pct(us) })),
    topInclusive: sorted(inclusive)
      .filter(([name]) => !name.startsWith('(root)') && !name.startsWith('(program)'))
      .slice(0, top)
      .map(([name, us]) => ({ name, totalMs: ms(us), totalPercent: pct(us) })),
  };
}

/** The summary as text for the console. */
export function formatSummary(name: string, summary: ProfileSummary, requests: number): string {
  const perRequest = (value: number) => ((value * 1000) / Math.max(1, requests)).toFixed(0);
  const lines = [`--- ${name}: server CPU profile, ${summary.busyMs} ms busy of ${summary.totalMs} ms (${perRequest(summary.busyMs)} µs/request)`];
  lines.push('  where the time goes:');
  for (const row of summary.byBucket) lines.push(`    ${row.selfPercent.toFixed(1).padStart(5)}%  ${perRequest(row.selfMs).padStart(5)} µs/req  ${row.name}`);
  lines.push('  self time by package/file:');
  for (const row of summary.byCategory.slice(0, 15)) lines.push(`    ${row.selfPercent.toFixed(1).padStart(5)}%  ${perRequest(row.selfMs).padStart(5)} µs/req  ${row.name}`);
  lines.push('  top functions (self):');
  for (const row of summary.topSelf.slice(0, 15)) lines.push(`    ${row.selfPercent.toFixed(1).padStart(5)}%  ${row.name}`);
  lines.push('  top functions (inclusive):');
  for (const row of summary.topInclusive.slice(0, 25)) lines.push(`    ${row.totalPercent.toFixed(1).padStart(5)}%  ${row.name}`);
  return lines.join('\n');
}
