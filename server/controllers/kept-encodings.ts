import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'koa';

type Coding = 'br' | 'gzip';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Below this, an encoding saves less than a packet; the identity bytes go as they are.
 */
const SMALLEST_ENCODED = 1024;

/** The encodings of kept JSON bytes, each made once (off the event loop) when a client first accepts it. */
const ENCODED = new WeakMap<Buffer, Partial<Record<Coding, Promise<Buffer>>>>();

function encode(body: Buffer, coding: Coding): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body);
  // Quality 5 of 11: about twice gzip's time for a third of its size on schema JSON; higher qualities cost
  // seconds for 7 MB and gain little.
  return brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
}

function encoded(body: Buffer, coding: Coding): Promise<Buffer> {
  let codings = ENCODED.get(body);
  if (!codings) ENCODED.set(body, (codings = {}));
  let bytes = codings[coding];
  if (!bytes) {
    codings[coding] = bytes = encode(body, coding);
    // A failed encoding is not kept: the next request tries again.
    bytes.catch(() => {
      if (codings![coding] === bytes) delete codings![coding];
    });
  }
  return bytes;
}

/**
 * br when the client accepts it at all, else gzip, else none. Browsers list `gzip, deflate, br` at equal
 * weight and the negotiator would take their first; br is a third of gzip's size for the same decoding work.
 */
function preferredCoding(ctx: Context): Coding | null {
  if (ctx.acceptsEncodings('br') === 'br') return 'br';
  return ctx.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : null;
}

/**
 * Answers with JSON bytes a route keeps (the schema lists, per overview and visibility) in the encoding the
 * client prefers among br, gzip and identity. The encoded bytes are kept with the identity bytes, so they are
 * made once per kept answer; the response cache then hashes whichever bytes go out, giving each encoding its
 * own strong ETag (docs/cache.md). Only these lists are encoded: a general compression middleware would spend
 * CPU on every other answer.
 */
export async function sendKeptJson(ctx: Context, body: Buffer): Promise<void> {
  ctx.type = 'application/json';
  ctx.vary('Accept-Encoding');
  const coding = body.length < SMALLEST_ENCODED ? null : preferredCoding(ctx);
  if (coding === 'br' || coding === 'gzip') {
    try {
      ctx.body = await encoded(body, coding);
      ctx.set('Content-Encoding', coding);
      return;
    } catch {
      // Send the identity bytes.
    }
  }
  ctx.body = body;
}
