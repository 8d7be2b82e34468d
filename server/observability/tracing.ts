import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { loggingErrorHandler, setGlobalErrorHandler, W3CTraceContextPropagator } from '@opentelemetry/core';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, type Sampler, type SpanExporter, TraceIdRatioBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import type { Middleware } from 'koa';
import type { TracesConfig } from '../config/load-config.ts';
import type { Logger } from '../logger.ts';
import { packageVersion } from '../version.ts';
import { type StatementTrace, statementTraces } from './statement-traces.ts';
import { traceRequests } from './trace-requests.ts';

/** This process's tracing (OTEL_*): the request middleware, and how to flush and stop. */
export interface Tracing {
  /** Opens the request's span; mounted outermost (server/app.ts). */
  middleware: Middleware;
  /** Exports the spans still buffered and unregisters everything; waits at most `timeoutMs`. */
  shutdown(timeoutMs: number): Promise<void>;
}

/** The standard OTEL_TRACES_SAMPLER values as the SDK's samplers. */
const SAMPLERS: Record<TracesConfig['sampler'], (ratio: number) => Sampler> = {
  always_on: () => new AlwaysOnSampler(),
  always_off: () => new AlwaysOffSampler(),
  traceidratio: (ratio) => new TraceIdRatioBasedSampler(ratio),
  parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
  parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
  parentbased_traceidratio: (ratio) => new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) }),
};

/** The OTLP/HTTP exporter for the configured encoding; only that one is loaded. */
async function createExporter(config: TracesConfig): Promise<SpanExporter> {
  const options = config.url ? { url: config.url } : {};
  if (config.protocol === 'http/json') return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(options);
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(options);
}

/**
 * Starts OpenTelemetry tracing (server/http-server.ts calls it only when OTEL_* configures an exporter, so
 * with traces off none of the SDK is loaded). Spans are our own: one per request (trace-requests.ts) and one
 * per statement, child of the request's, from the statement channel the pg client publishes to.
 */
export async function startTracing(config: TracesConfig, logger: Logger): Promise<Tracing> {
  const exporter = await createExporter(config);
  // OTEL_RESOURCE_ATTRIBUTES (envDetector) adds to, and may override, what Tessera says about itself.
  const detected = detectResources({ detectors: [envDetector] });
  const resource = resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': packageVersion() }).merge(detected);
  const provider = new TracerProvider({ resource, sampler: SAMPLERS[config.sampler](config.samplerRatio), spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: config.batch.scheduleDelayMs, maxQueueSize: config.batch.maxQueueSize, maxExportBatchSize: Math.min(512, config.batch.maxQueueSize) })] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // Registered globally, so spans an extension makes with @opentelemetry/api join the same traces.
  trace.setGlobalTracerProvider(provider);
  setGlobalErrorHandler((error) => logger.warn({ err: error }, 'traces: could not export spans'));
  const tracer = provider.getTracer('tessera', packageVersion());

  const spans = new WeakMap<StatementTrace, Span>();
  const statementHandlers = {
    start(message: StatementTrace) {
      // Statements outside a recorded request (job runner, schedules, start-up) are not traced: each would be a trace of its own.
      const parent = trace.getSpan(context.active());
      if (!parent?.isRecording()) return;
      const operation = /^\s*(\w+)/.exec(message.text)?.[1]?.toUpperCase();
      spans.set(
        message,
        // db.query.text is the parameterised text: parameter values (which may be secrets) are never recorded.
        tracer.startSpan(operation ?? 'postgresql', { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.query.text': message.text, ...(operation ? { 'db.operation.name': operation } : {}) } }),
      );
    },
    error(message: StatementTrace) {
      // The SQLSTATE only: PostgreSQL's messages can quote the values a statement was given.
      const span = spans.get(message);
      const code = (message.error as { code?: unknown } | undefined)?.code;
      span?.setStatus({ code: SpanStatusCode.ERROR }).setAttribute('error.type', typeof code === 'string' ? code : 'Error');
      if (typeof code === 'string') span?.setAttribute('db.response.status_code', code);
    },
    asyncEnd(message: StatementTrace) {
      spans.get(message)?.end();
      spans.delete(message);
    },
    end() {},
    asyncStart() {},
  };
  statementTraces.subscribe(statementHandlers);

  return {
    middleware: traceRequests(tracer),
    shutdown: async (timeoutMs) => {
      statementTraces.unsubscribe(statementHandlers);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([provider.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'traces: could not flush spans')), timedOut]);
      clearTimeout(timer);
      trace.disable();
      propagation.disable();
      context.disable();
      setGlobalErrorHandler(loggingErrorHandler());
    },
  };
}
