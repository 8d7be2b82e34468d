import type { Context } from 'koa';

const BODIES = new WeakMap<readonly unknown[], Buffer>();

/**
 * Answers `{ data: list }`. A frozen list is one the services keep per schema overview and visibility
 * (services/schema/schema-lists.ts): its JSON is written once and kept with it, so the next caller who
 * sees the same gets the same bytes (`GET /fields` of 500 collections × 20 fields is megabytes of JSON).
 */
export function sendList(ctx: Context, list: readonly unknown[]): void {
  if (!Object.isFrozen(list)) {
    ctx.body = { data: list };
    return;
  }
  let body = BODIES.get(list);
  if (!body) BODIES.set(list, (body = Buffer.from(JSON.stringify({ data: list }))));
  ctx.type = 'application/json';
  ctx.body = body;
}
