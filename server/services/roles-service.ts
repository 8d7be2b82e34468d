import type { ServiceContext } from './service-context.ts';

/** A role row as services use it. */
export interface Role {
  id: string;
  name: string;
  admin_access: boolean;
  app_access: boolean;
}

/** The administrator role that bootstrap creates. */
export const ADMINISTRATOR_ROLE_NAME = 'Administrator';

/** Role lookups and creation (the data engine extends this with the generic item operations). */
export class RolesService {
  readonly #context: ServiceContext;

  constructor(context: ServiceContext) {
    this.#context = context;
  }

  /** The role named `name`, or null. */
  async findByName(name: string): Promise<Role | null> {
    const row = await this.#context.db
      .selectFrom('tessera_roles')
      .select(['id', 'name', 'admin_access', 'app_access'])
      .where('name', '=', name)
      .executeTakeFirst();
    return (row as Role | undefined) ?? null;
  }

  /** Creates a role and returns it. */
  async create(role: Omit<Role, 'id'> & { icon?: string; description?: string }): Promise<Role> {
    return (await this.#context.db
      .insertInto('tessera_roles')
      .values(role)
      .returning(['id', 'name', 'admin_access', 'app_access'])
      .executeTakeFirstOrThrow()) as Role;
  }
}
