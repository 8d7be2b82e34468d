import { Migration } from '@mikro-orm/migrations';

/**
 * One value per translation key and language (snapshots key translations by both). When a project
 * already has two values for one key and language, the migration stops and says so: an operator
 * decides which one stays.
 */
export class UniqueTranslationsMigration extends Migration {
  override name = '20261124000002-unique-translations';

  up(): void {
    this.addSql(`do $$
      declare clashes integer;
      begin
        select count(*) into clashes from (select 1 from "tessera_translations" group by "key", "language" having count(*) > 1) as c;
        if clashes > 0 then
          raise exception 'tessera_translations: % key(s) have several values for one language; keep one value per key and language, then migrate again', clashes;
        end if;
      end $$`);
    this.addSql(`drop index if exists "tessera_translations_key_language_index"`);
    this.addSql(`create unique index "tessera_translations_key_language_unique" on "tessera_translations" ("key", "language")`);
  }

  override down(): void {
    this.addSql(`drop index if exists "tessera_translations_key_language_unique"`);
    this.addSql(`create index "tessera_translations_key_language_index" on "tessera_translations" ("key", "language")`);
  }
}
