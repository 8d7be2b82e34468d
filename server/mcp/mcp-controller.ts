import Router from '@koa/router';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'koa';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { InvalidCredentialsError } from '../errors.ts';
import { createMcpServer } from './mcp-server.ts';

/** The request as a fetch Request for the SDK's transport; the body is handed over already parsed. */
function webRequest(ctx: Context): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(new URL(ctx.originalUrl, 'http://localhost'), { method: ctx.method, headers });
}

async function writeResponse(ctx: Context, response: Response): Promise<void> {
  ctx.status = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') ctx.set(name, value);
  });
  // JSON responses only (enableJsonResponse): no event stream is ever left open.
  const body = await response.text();
  if (body !== '') ctx.body = body;
}

/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP, stateless (docs/mcp.md): each request gets
 * its own server and transport, built for the signed-in caller, and is answered with JSON; no session is
 * kept, so any instance can answer any request. `GET` (a server-sent event stream) and `DELETE` (ending a
 * session) have nothing to serve: 405, as the protocol lets a server answer.
 */
export function mcpController(app: AppContext): Router {
  const router = new Router({ prefix: '/mcp' });

  router.post('/', async (ctx) => {
    const caller = ctx.state.accountability as Accountability;
    // A token, never the session cookie alone: a page of another site must not reach MCP on a visitor's session.
    const sentToken = Boolean(ctx.get('Authorization') || ctx.query.access_token);
    if (!caller.user || !sentToken) {
      ctx.set('WWW-Authenticate', 'Bearer');
      throw new InvalidCredentialsError('MCP needs a signed-in user: send "Authorization: Bearer <token>" (an access token or a static token).');
    }
    // origin 'mcp': what the caller writes is recorded in activity as MCP's.
    const server = createMcpServer({ app, accountability: { ...caller, origin: 'mcp' } });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      await writeResponse(ctx, await transport.handleRequest(webRequest(ctx), { parsedBody: ctx.request.body }));
    } finally {
      await server.close();
    }
  });

  const methodNotAllowed = (ctx: Context) => {
    ctx.set('Allow', 'POST');
    ctx.status = 405;
    ctx.body = { errors: [{ message: 'MCP is served statelessly: send JSON-RPC messages with POST /mcp.', extensions: { code: 'METHOD_NOT_ALLOWED' } }] };
  };
  router.get('/', methodNotAllowed);
  router.delete('/', methodNotAllowed);
  return router;
}
