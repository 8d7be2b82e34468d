import type { ServiceContext } from './service-context.ts';

/** The settings singleton always has this id. */
export const SETTINGS_ID = 1;

/** Reads and seeds the project settings singleton. */
export class SettingsService {
  readonly #context: ServiceContext;

  constructor(context: ServiceContext) {
    this.#context = context;
  }

  /** The settings row (every column), or null before bootstrap. */
  async read(): Promise<Record<string, unknown> | null> {
    const row = await this.#context.db.selectFrom('tessera_settings').selectAll().where('id', '=', SETTINGS_ID).executeTakeFirst();
    return row ?? null;
  }

  /** Creates the singleton with the schema's defaults (SPEC §9) unless it exists; true when created. */
  async ensure(projectName?: string): Promise<boolean> {
    const values: Record<string, unknown> = { id: SETTINGS_ID };
    if (projectName) values.project_name = projectName;
    const result = await this.#context.db
      .insertInto('tessera_settings')
      .values(values)
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }
}
