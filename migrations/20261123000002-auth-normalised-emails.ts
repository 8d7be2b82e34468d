import { Migration } from '@mikro-orm/migrations';

/**
 * SPEC §5: e-mails are stored trimmed and lowercased, one account per address whatever its case. Existing
 * addresses are normalised where that collides with no other user; a unique index on lower(email) then
 * keeps even writes that bypass the API from adding a second account. When two users' addresses differ
 * only in case, the migration stops with a message saying so: an operator has to merge or rename them.
 */
export class AuthNormalisedEmailsMigration extends Migration {
  override name = '20261123000002-auth-normalised-emails';

  up(): void {
    this.addSql(`update "tessera_users" as u set "email" = lower(btrim(u."email"))
      where u."email" is distinct from lower(btrim(u."email"))
        and not exists (select 1 from "tessera_users" as o where o."id" <> u."id" and lower(btrim(o."email")) = lower(btrim(u."email")))`);
    this.addSql(`do $$
      declare clashes integer;
      begin
        select count(*) into clashes from (select 1 from "tessera_users" where "email" is not null group by lower(btrim("email")) having count(*) > 1) as c;
        if clashes > 0 then
          raise exception 'tessera_users: % e-mail address(es) belong to several users that differ only in case or spaces; give each user its own address, then migrate again', clashes;
        end if;
      end $$`);
    this.addSql(`create unique index "tessera_users_email_lower_unique" on "tessera_users" (lower("email"))`);
  }

  override down(): void {
    this.addSql(`drop index if exists "tessera_users_email_lower_unique"`);
  }
}
