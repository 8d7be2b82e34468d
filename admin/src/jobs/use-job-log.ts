import { useCallback, useEffect, useState } from 'react';
import { apiRequest } from '../providers/http-client.ts';

/** A durable job not yet finished, as the server lists it in `meta.queued` of a delivery or run log. */
export interface QueuedJob {
  job_id: string;
  state: 'queued' | 'running' | 'retrying';
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  run_at: string;
}

export interface JobLog<Entry> {
  entries: Entry[];
  queued: QueuedJob[];
}

/**
 * Loads a job log endpoint (`/webhooks/:id/deliveries`, `/flows/:id/runs`): finished entries in `data`, jobs still
 * waiting in `meta.queued`. Reloads when the path or `refreshKey` changes; `path` null loads nothing.
 */
export function useJobLog<Entry>(path: string | null, refreshKey = 0) {
  const [log, setLog] = useState<JobLog<Entry> | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    if (path === null) return;
    setLoading(true);
    setError(null);
    try {
      const body = await apiRequest<{ data: Entry[]; meta: { queued: QueuedJob[] } }>(path);
      setLog({ entries: body.data, queued: body.meta.queued });
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setLoading(false);
    }
  }, [path]);

  useEffect(() => {
    setLog(null);
  }, [path]);

  useEffect(() => {
    void reload();
  }, [reload, refreshKey]);

  return { log, loading, error, reload };
}
