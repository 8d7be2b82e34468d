import { parseRequestParams, type RequestParams } from 'graphql-http';
import type { Context } from 'koa';
import { InvalidPayloadError, TesseraError, UnsupportedMediaTypeError } from '../errors.ts';

/** graphql-http's refusals (it throws plain errors) as the client error each one is, naming the member. */
const REFUSALS: Record<string, { message: string; field?: string }> = {
  'Missing query': { message: 'A GraphQL request needs "query": the document, as text.', field: 'query' },
  'Invalid query': { message: '"query" must be the GraphQL document, as text.', field: 'query' },
  'Invalid variables': { message: '"variables" must be an object of variable values.', field: 'variables' },
  'Invalid operationName': { message: '"operationName" must be text.', field: 'operationName' },
  'Invalid extensions': { message: '"extensions" must be an object.', field: 'extensions' },
  'Missing body': { message: 'The body must be a JSON object: { "query": … } (batches are not supported).' },
  'Unparsable JSON body': { message: 'The body must be a JSON object: { "query": … } (batches are not supported).' },
  'JSON body must be an object': { message: 'The body must be a JSON object: { "query": … } (batches are not supported).' },
};

/** Which URL parameter of a GET is not JSON (graphql-http only says "Unparsable URL"). */
function unparsableParameter(ctx: Context): string {
  for (const name of ['variables', 'extensions']) {
    const value = new URLSearchParams(ctx.querystring).get(name);
    if (value === null) continue;
    try {
      JSON.parse(value);
    } catch {
      return name;
    }
  }
  return 'query';
}

/**
 * The GraphQL request's parameters (GET query string or POST JSON body), checked by graphql-http; every
 * malformed request is a 400 `INVALID_PAYLOAD` naming the member at fault (415 for another media type),
 * answered in the one error shape of every route, never a 500.
 */
export async function graphqlRequestParams(ctx: Context): Promise<RequestParams> {
  let params: Awaited<ReturnType<typeof parseRequestParams>>;
  try {
    params = await parseRequestParams({
      url: ctx.url,
      method: ctx.method,
      headers: ctx.headers,
      body: (ctx.request.body as Record<string, unknown> | undefined) ?? null,
      raw: ctx,
      context: undefined,
    });
  } catch (error) {
    if (error instanceof TesseraError) throw error;
    const reason = (error as Error).message;
    if (reason === 'Unparsable URL') {
      const field = unparsableParameter(ctx);
      throw new InvalidPayloadError(`"${field}" in the URL must be JSON.`, { field });
    }
    const refusal = Object.hasOwn(REFUSALS, reason) ? REFUSALS[reason]! : { message: `Malformed GraphQL request: ${reason}.` };
    throw new InvalidPayloadError(refusal.message, refusal.field ? { field: refusal.field } : undefined);
  }
  if ('query' in params) return params;
  const [, init] = params;
  if (init.status === 415) throw new UnsupportedMediaTypeError('Send GraphQL requests as application/json (POST) or in the query string (GET).');
  throw new InvalidPayloadError(`GraphQL is served over GET and POST, not ${ctx.method}.`);
}
