import type { Context } from 'koa';
import { sendKeptJson } from './kept-encodings.ts';

const BODIES = new WeakMap<readonly unknown[], Buffer>();

/**
 * Answers `{ data: list }`. A frozen list is one the services keep per schema overview and visibility
 * (services/schema/schema-lists.ts): its JSON is encoded once and its bytes kept with it, so the next caller
 * who sees the same gets the same bytes (`GET /fields` of 500 collections × 20 fields is 7 MB of JSON).
 * Bytes, not text: sending a 7 MB string made Node measure it (Content-Length) and encode it to UTF-8 on
 * every request, ~80 % of the server's time for a warm `GET /fields` (docs/performance.md, "Large schemas").
 */
export async function sendList(ctx: Context, list: readonly unknown[]): Promise<void> {
  if (!Object.isFrozen(list)) {
    ctx.body = { data: list };
    return;
  }
  let body = BODIES.get(list);
  if (body === undefined) BODIES.set(list, (body = Buffer.from(JSON.stringify({ data: list }))));
  await sendKeptJson(ctx, body);
}

/** Answers with JSON already encoded: kept bytes also in the client's encoding (kept-encodings.ts). */
export async function sendJsonBytes(ctx: Context, json: { body: Buffer; kept: boolean }): Promise<void> {
  if (json.kept) return sendKeptJson(ctx, json.body);
  ctx.type = 'application/json';
  ctx.body = json.body;
}
