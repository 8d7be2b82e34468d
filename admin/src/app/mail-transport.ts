import { apiData } from '../providers/http-client.ts';

/**
 * Where the server's e-mail goes (`ses`, `smtp`, or `outbox`: files in DATA_DIR/outbox, mailed to no one),
 * from `/server/info`, which tells administrators only; null when the caller is not told.
 */
export function mailTransport(): Promise<string | null> {
  return apiData<{ email?: { transport?: string } }>('/server/info').then(
    (info) => info?.email?.transport ?? null,
    () => null,
  );
}
