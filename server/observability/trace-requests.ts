import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import { matchedRoute, methodLabel } from '../metrics/route-label.ts';

/**
 * One SERVER span per request, named `<METHOD> <route template>` (never the raw path, whose ids would make
 * a name per item), continuing the caller's `traceparent`. The request runs inside the span's context, so
 * the statements it sends become its children (server/observability/tracing.ts).
 */
export function traceRequests(tracer: Tracer): Middleware {
  return async (ctx, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, ctx.headers);
    const known = methodLabel(ctx.method) !== 'OTHER';
    // Semantic conventions: a method outside the known set is `_OTHER`, and its span is named `HTTP`.
    const method = known ? ctx.method : 'HTTP';
    const span = tracer.startSpan(
      method,
      // url.query is left out: it may carry access_token.
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': known ? ctx.method : '_OTHER', 'url.path': ctx.path, 'url.scheme': ctx.protocol } },
      parent,
    );
    let status = 500;
    try {
      await context.with(trace.setSpan(parent, span), next);
      status = ctx.status;
    } catch (error) {
      // The error handler sits inside this middleware; an error that still gets here is answered by Koa with 500.
      span.setAttribute('error.type', (error as Error)?.name ?? 'Error');
      throw error;
    } finally {
      const route = matchedRoute(ctx);
      if (route) {
        span.updateName(`${method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
