import * as yup from 'yup';
import { endUserAccess } from '../auth/access-stamps.ts';
import { hashPassword } from '../auth/passwords.ts';
import { normalizeEmail } from '../auth/email.ts';
import { withDatabaseErrors } from '../database/translate-db-error.ts';
import { InvalidPayloadError } from '../errors.ts';
import { USER_STATUSES } from '../schema/system/constants.ts';
import { validatePayload } from './validate-payload.ts';
import type { ServiceContext } from './service-context.ts';

/** What the CLI and bootstrap may set when creating a user. */
export interface NewUser {
  email: string;
  password: string;
  role?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  status?: (typeof USER_STATUSES)[number];
}

/** A user as listed by `tessera users list` (secrets never included). */
export interface UserSummary {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  status: string;
  role: string | null;
  role_name: string | null;
  last_access: Date | null;
}

const newUserSchema = yup.object({
  email: yup.string().required().email().max(128),
  password: yup.string().required().min(8).max(1024),
  role: yup.string().uuid().nullable(),
  first_name: yup.string().max(50).nullable(),
  last_name: yup.string().max(50).nullable(),
  status: yup.string().oneOf(USER_STATUSES).default('active'),
});

/** User operations the CLI and the bootstrap share with the API. */
export class UsersService {
  readonly #context: ServiceContext;

  constructor(context: ServiceContext) {
    this.#context = context;
  }

  /** Creates a user with an argon2id password hash; returns the new id. */
  async createOne(input: NewUser): Promise<string> {
    const user = validatePayload(newUserSchema, { ...input, email: normalizeEmail(input.email ?? '') });
    const password = await hashPassword(user.password, this.#context.config.auth.hash);
    return withDatabaseErrors(async () => {
      const row = await this.#context.db
        .insertInto('tessera_users')
        .values({ ...user, password })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id as string;
    });
  }

  /** Sets a new password for the user with this e-mail; their sessions and access tokens end. */
  async setPassword(email: string, password: string): Promise<void> {
    validatePayload(newUserSchema.pick(['password']), { password });
    const hash = await hashPassword(password, this.#context.config.auth.hash);
    const ended = await this.#context.db.transaction().execute(async (trx) => {
      const user = await trx.updateTable('tessera_users').set({ password: hash }).where('email', '=', normalizeEmail(email)).returning('id').executeTakeFirst();
      if (!user) throw new InvalidPayloadError(`No user has the e-mail "${normalizeEmail(email)}".`, { field: 'email' });
      return endUserAccess(trx, [user.id as string]);
    });
    this.#context.accessStamps?.publish(ended);
  }

  /** Every user with their role's name, ordered by e-mail. */
  async listAll(): Promise<UserSummary[]> {
    return (await this.#context.db
      .selectFrom('tessera_users as u')
      .leftJoin('tessera_roles as r', 'r.id', 'u.role')
      .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.status', 'u.role', 'r.name as role_name', 'u.last_access'])
      .orderBy('u.email')
      .execute()) as UserSummary[];
  }

  /** Number of users, for the bootstrap's "is this database empty" check. */
  async count(): Promise<number> {
    const row = await this.#context.db.selectFrom('tessera_users').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }
}
