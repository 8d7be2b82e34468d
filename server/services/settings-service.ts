import { validateAssetPresets } from '../files/assets/asset-presets.ts';
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

/**
 * The SPEC §5 rules of a settings write that the column types cannot express: storage_asset_presets is
 * validated (key required and slug-like; fit, width, height and quality non-nullable) and gets its
 * defaults (quality 80). Returns the payload to write; 400 INVALID_PAYLOAD names the preset field.
 */
export function validateSettingsPayload<T>(payload: T): T {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload) || !('storage_asset_presets' in payload)) return payload;
  return { ...payload, storage_asset_presets: validateAssetPresets((payload as Record<string, unknown>).storage_asset_presets) } as T;
}
