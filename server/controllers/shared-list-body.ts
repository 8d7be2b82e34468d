import type { Context } from 'koa';

const BODIES = new WeakMap<readonly unknown[], string>();

/**
 * Answers `{ data: list }`. A frozen list is one the services keep per schema overview and visibility
 * (services/schema/schema-lists.ts): its JSON is written once and kept with it, so the next caller who
 * sees the same gets the same text (`GET /fields` of 500 collections × 20 fields is megabytes of JSON). Kept
 * as text, not bytes, so the response cache can keep and revalidate the answer like any other JSON.
 */
export function sendList(ctx: Context, list: readonly unknown[]): void {
  if (!Object.isFrozen(list)) {
    ctx.body = { data: list };
    return;
  }
  let body = BODIES.get(list);
  if (body === undefined) BODIES.set(list, (body = JSON.stringify({ data: list })));
  ctx.type = 'application/json';
  ctx.body = body;
}
