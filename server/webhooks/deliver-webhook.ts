import type { JobHelpers } from 'graphile-worker';
import type { OutboundAllowList } from '../outbound/address-policy.ts';
import { outboundRequest } from '../outbound/outbound-request.ts';
import type { WebhookJob } from './enqueue-deliveries.ts';

/** A webhook call gives up after this long (SPEC §9). */
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** Bytes of a receiver's answer read (and the first 2 KB of it kept in the log on failure). */
const MAX_RESPONSE_BYTES = 64 * 1024;

interface WebhookRow {
  method: 'GET' | 'POST';
  url: string;
  status: string;
  headers: Array<{ header?: unknown; value?: unknown }> | null;
}

/**
 * Runs one delivery job: reads the webhook as it is now (deleted or deactivated since: nothing is sent),
 * calls it through the outbound guard, and logs the attempt. A failure throws, so graphile-worker retries.
 */
export function deliverWebhookTask(allow: OutboundAllowList) {
  return async (raw: unknown, helpers: JobHelpers): Promise<void> => {
    const job = raw as WebhookJob;
    const { rows } = await helpers.withPgClient((client) => client.query<WebhookRow>('select method, url, status, headers from tessera_webhooks where id = $1', [job.webhook]));
    const webhook = rows[0];
    if (!webhook || webhook.status !== 'active') return;
    const headers: Record<string, string> = {};
    for (const entry of Array.isArray(webhook.headers) ? webhook.headers : []) {
      if (typeof entry?.header === 'string' && entry.header) headers[entry.header.toLowerCase()] = String(entry.value ?? '');
    }
    const post = webhook.method === 'POST';
    if (post) headers['content-type'] = 'application/json';
    const started = Date.now();
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      const response = await outboundRequest({ url: webhook.url, method: webhook.method, headers, body: post ? JSON.stringify(job.body) : undefined, allow, timeoutMs: WEBHOOK_TIMEOUT_MS, maxResponseBytes: MAX_RESPONSE_BYTES });
      httpStatus = response.status;
      if (response.status < 200 || response.status >= 300) error = `The receiver answered ${response.status}: ${response.body.slice(0, 2048)}`;
    } catch (caught) {
      error = (caught as Error).message;
    }
    await helpers.withPgClient((client) =>
      client.query(
        `insert into tessera_automation.webhook_deliveries (webhook, job_id, event, collection, attempt, max_attempts, status, http_status, error, duration_ms)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [job.webhook, String(helpers.job.id), job.body.event, job.body.collection, helpers.job.attempts, helpers.job.max_attempts, error ? 'failed' : 'success', httpStatus, error, Date.now() - started],
      ),
    );
    if (error) throw new Error(error);
  };
}
