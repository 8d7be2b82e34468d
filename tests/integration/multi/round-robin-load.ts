import { call, type Answer } from './instances.ts';

/** An instance behind the round-robin client. */
export interface Target {
  name: string;
  url: string;
}

/** One write the client sent and what became of it. */
export interface Write {
  /** The write's own id, stored in the item (`cw` by its create, `uw` by its update). */
  w: string;
  kind: 'create' | 'update';
  /** The item's key: known before an update, from the answer after a create (null if it never came). */
  id: number | null;
  via: string;
  /** 200, another status, or null when the connection failed (no answer at all). */
  status: number | null;
}

/** A read that did not show the state its lane's last acknowledged write left. */
export interface StaleRead {
  via: string;
  id: number;
  expected: unknown;
  got: unknown;
}

/** What a load run did. */
export interface LoadResult {
  writes: Write[];
  staleReads: StaleRead[];
  cacheHits: number;
  /** Targets taken out of rotation because a connection to them failed. */
  dropped: string[];
}

/**
 * Round-robin over the targets still in rotation; a target whose connection fails leaves it (a load
 * balancer's passive health check).
 */
class RoundRobin {
  #next = 0;
  readonly live: Target[];
  readonly dropped: string[] = [];

  constructor(targets: Target[]) {
    this.live = [...targets];
  }

  pick(): Target {
    if (this.live.length === 0) throw new Error('no instance left in rotation');
    return this.live[this.#next++ % this.live.length]!;
  }

  drop(target: Target): void {
    const index = this.live.indexOf(target);
    if (index === -1) return;
    this.live.splice(index, 1);
    this.dropped.push(target.name);
  }
}

/**
 * Sends `total` writes to `collection` through the targets in turn, from `lanes` concurrent clients, write n
 * starting no earlier than n × `intervalMs` after the first (a steady rate; slower when the instances are).
 * Each lane creates its own items and later updates some of them (each at most once), so a lane knows the
 * state every acknowledged write of its own leaves: after each one it reads the item back through another
 * instance, and after every third through a second one (the cache's to answer). `midway` runs when write
 * total/2 starts.
 */
export async function runLoad(options: { targets: Target[]; token: string; collection: string; total: number; lanes: number; intervalMs: number; midway: () => void }): Promise<LoadResult> {
  const rotation = new RoundRobin(options.targets);
  const writes: Write[] = [];
  const staleReads: StaleRead[] = [];
  let cacheHits = 0;
  let sequence = 0;
  const started = Date.now();
  const items = `/items/${options.collection}`;

  /** Sends one request through the rotation; a connection failure drops its target and answers null. */
  async function send(method: string, url: string, body?: unknown): Promise<{ target: Target; answer: Answer | null }> {
    const target = rotation.pick();
    try {
      return { target, answer: await call(target.url, method, url, options.token, body) };
    } catch {
      rotation.drop(target);
      return { target, answer: null };
    }
  }

  /** Reads the item through the next instance (a miss: the write purged it) and, after every third write, again through the one after. */
  async function readBack(n: number, id: number, expected: { id: number; cw: string; uw: string | null }): Promise<void> {
    for (let reads = 0; reads < (n % 3 === 0 ? 2 : 1); ) {
      const { target, answer } = await send('GET', `${items}/${id}?fields=id,cw,uw`);
      if (!answer) continue;
      reads += 1;
      if (answer.headers.get('x-cache') === 'HIT') cacheHits += 1;
      const got = answer.body?.data;
      if (answer.status !== 200 || got?.cw !== expected.cw || got?.uw !== expected.uw) staleReads.push({ via: target.name, id, expected, got: answer.body });
    }
  }

  async function lane(): Promise<void> {
    const mine: Array<{ id: number; cw: string }> = [];
    for (;;) {
      const n = sequence++;
      if (n >= options.total) return;
      const wait = started + n * options.intervalMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (n === Math.floor(options.total / 2)) options.midway();
      const w = `w${n}`;
      if (n % 3 === 2 && mine.length > 0) {
        const item = mine.shift()!;
        const { target, answer } = await send('PATCH', `${items}/${item.id}`, { uw: w });
        writes.push({ w, kind: 'update', id: item.id, via: target.name, status: answer?.status ?? null });
        if (answer?.status === 200) await readBack(n, item.id, { id: item.id, cw: item.cw, uw: w });
      } else {
        const { target, answer } = await send('POST', items, { title: `note ${n}`, cw: w });
        const id = answer?.status === 200 ? (answer.body.data.id as number) : null;
        writes.push({ w, kind: 'create', id, via: target.name, status: answer?.status ?? null });
        if (id === null) continue;
        mine.push({ id, cw: w });
        await readBack(n, id, { id, cw: w, uw: null });
      }
    }
  }

  await Promise.all(Array.from({ length: options.lanes }, () => lane()));
  return { writes, staleReads, cacheHits, dropped: rotation.dropped };
}
