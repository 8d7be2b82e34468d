import { useCallback, useEffect, useState } from 'react';
import type { QueuedJob } from '../../../server/jobs/queued-jobs.ts';
import { apiRequest } from '../providers/http-client.ts';

export type { QueuedJob };

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
