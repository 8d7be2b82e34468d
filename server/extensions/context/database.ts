import knexFactory, { type Knex } from 'knex';
import type { AppContext } from '../../app-context.ts';
import type { WriteTransaction } from '../../events/event-names.ts';
export function extensionDatabase(app: AppContext): { knex(): Knex; transactionHandle(transaction: WriteTransaction): Knex; close(): Promise<void> } {
  let instance: Knex | null = null;
  const knex = () => (instance ??= knexFactory({ client: 'pg', connection: app.config.database.url ?? '', pool: { min: 0, max: 2 } }));
  return { knex, transactionHandle: () => knex(), close: async () => void (await instance?.destroy()) };
}
