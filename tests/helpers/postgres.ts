import pg from 'pg';

/** The PostgreSQL server the integration suite uses (TEST_DB_URL, default the local one). */
export const SERVER_URL = process.env.TEST_DB_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** SERVER_URL pointed at another database on the same server. */
export function urlFor(database: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs one statement on the server's maintenance database. */
export async function adminQuery(statement: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A database name no other test or run will pick. */
export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}
