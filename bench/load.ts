import { request, type Api } from './api.ts';
import autocannon from 'autocannon';

/** One measured scenario: what autocannon sends, and what the run is compared with. */
export interface Scenario {
  name: string;
  kind: 'read' | 'write';
  /** Directus 12.4.0 on this machine class, req/s (null: no reference). */
  directus: number | null;
  /** A representative request, for the output and docs. */
  example: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** A fixed path, or a function giving each request its own path and body. */
  path: string;
  next?: () => { path?: string; body?: string; headers?: Record<string, string> };
  /** Who sends the requests: the admin (default) or a user whose role restricts rows and fields. */
  as?: 'admin' | 'restricted';
  /** Prepares the database before the warm-up (as the admin); returns a line for the output. */
  before?: (admin: Api) => Promise<string>;
  /** Undoes `before` once measured, so later scenarios run against the same schema as before it. */
  after?: (admin: Api) => Promise<void>;
  /** Sent to a second server on the same database with the response cache on (CACHE_ENABLED=true). */
  cached?: boolean;
}

export interface LoadResult {
  scenario: string;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationS: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Runs autocannon against `base` for one scenario. Latencies are collected from autocannon's `response`
 * events (sub-millisecond resolution; its own histogram rounds to whole milliseconds), 2xx only.
 */
export function runLoad(base: string, token: string, scenario: Scenario, options: { connections: number; durationS: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (scenario.method !== 'GET') headers['content-type'] = 'application/json';
  const request: autocannon.Request = { method: scenario.method, path: scenario.path };
  if (scenario.next) {
    const next = scenario.next;
    request.setupRequest = (req) => {
      const { headers: extra, ...rest } = next();
      return extra ? { ...req, ...rest, headers: { ...headers, ...req.headers, ...extra } } : { ...req, ...rest };
    };
  }
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: options.connections,
        duration: options.durationS,
        headers,
        requests: [request],
        timeout: 30,
      },
      (error, result) => {
        if (error) return reject(error);
        const sorted = Float64Array.from(latencies).sort();
        const statusCodes: Record<string, number> = {};
        for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
        const ok = result['2xx'];
        resolve({
          scenario: scenario.name,
          requests: ok,
          rps: round(ok / result.duration, 1),
          p50: round(percentile(sorted, 50)),
          p90: round(percentile(sorted, 90)),
          p99: round(percentile(sorted, 99)),
          max: round(sorted.length ? sorted[sorted.length - 1]! : Number.NaN),
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          statusCodes,
          durationS: result.duration,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/** One request per scenario before the load, so a broken URL fails with its error body, not a count. Returns its size. */
export async function preflight(api: Api, scenario: Scenario): Promise<number> {
  const next = scenario.next?.() ?? {};
  if ((next.path ?? scenario.path).startsWith('/assets/')) {
    const response = await fetch(`${api.base}${next.path ?? scenario.path}`, { headers: { Authorization: `Bearer ${api.token}` } });
    const bytes = (await response.arrayBuffer()).byteLength;
    if (!response.ok) throw new Error(`${scenario.name} answered ${response.status}`);
    return bytes;
  }
  const body = next.body === undefined ? undefined : JSON.parse(next.body);
  const response = await request<{ data: unknown }>(api.base, scenario.method, next.path ?? scenario.path, { token: api.token, body });
  return JSON.stringify(response).length;
}
