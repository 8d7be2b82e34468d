import pg from 'pg';

/**
 * The PostgreSQL processes working for a benchmark database: its backends and the shared writers, or with
 * `application` only the backends of connections with that application_name (the job worker's: tessera_jobs).
 */
export async function benchPostgresPids(url: string, name: string, application?: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = application
      ? await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and application_name = $2', [name, application])
      : await client.query<{ pid: number }>(
          `select pid from pg_stat_activity
            where (datname = $1 and pid <> pg_backend_pid()) or backend_type in ('walwriter', 'checkpointer', 'background writer')`,
          [name],
        );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** Jobs still in graphile-worker's queue (waiting, running or retrying). */
export async function queuedJobs(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>('select count(*) from graphile_worker._private_jobs');
    return Number(rows[0]!.count);
  } finally {
    await client.end();
  }
}
