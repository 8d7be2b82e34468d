import { sql, type Kysely } from 'kysely';
import { TFA_USED_STEPS_TABLE } from '../../migrations/20261123000001-auth-tfa-used-steps.ts';

/**
 * Records that a code of TOTP time step `step` was just accepted for `userId`; false when a code of this
 * step or a later one was accepted before (a replay, or an older code after a newer one). One conditional
 * upsert, so two instances racing with the same code cannot both win.
 */
export async function claimTotpStep(db: Kysely<any>, userId: string, step: number): Promise<boolean> {
  const { rows } = await sql`insert into ${sql.table(TFA_USED_STEPS_TABLE)} as used ("user", "step") values (${userId}, ${step})
    on conflict ("user") do update set "step" = excluded."step" where used."step" < excluded."step"
    returning "step"`.execute(db);
  return rows.length === 1;
}

/** Starts the record over for a new secret: its first code (the one that enabled it) is the last used. */
export async function restartTotpSteps(db: Kysely<any>, userId: string, step: number): Promise<void> {
  await sql`insert into ${sql.table(TFA_USED_STEPS_TABLE)} ("user", "step") values (${userId}, ${step})
    on conflict ("user") do update set "step" = excluded."step"`.execute(db);
}
