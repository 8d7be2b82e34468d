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

  /**
   * Makes sure the singleton exists (the system migration seeds it with SPEC §9 defaults) and, when
   * given, sets the project name. Returns true when the row had to be created.
   */
  async ensure(projectName?: string): Promise<boolean> {
    const result = await this.#context.db
      .insertInto('tessera_settings')
      .values({ id: SETTINGS_ID })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst();
    if (projectName) {
      await this.#context.db.updateTable('tessera_settings').set({ project_name: projectName }).where('id', '=', SETTINGS_ID).execute();
    }
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }
}
