/** One effective permission of the caller, as `/permissions/me` answers it. */
export interface EffectivePermission {
  collection: string;
  action: 'create' | 'read' | 'update' | 'delete' | 'share';
  fields: string[];
  permissions: Record<string, unknown>;
  validation: Record<string, unknown>;
  presets: Record<string, unknown> | null;
}

/** Refine's action names → Tessera's. */
const ACTION_OF: Record<string, EffectivePermission['action']> = {
  list: 'read',
  show: 'read',
  read: 'read',
  create: 'create',
  clone: 'create',
  edit: 'update',
  update: 'update',
  delete: 'delete',
  share: 'share',
};

/** System resources are stored under `tessera_<name>`. */
export function collectionOfResource(resource: string, systemNames: ReadonlySet<string>): string {
  return systemNames.has(resource) ? `tessera_${resource}` : resource;
}

/** Answers "may I?" questions from the caller's effective permissions. */
export class PermissionIndex {
  private readonly byKey = new Map<string, EffectivePermission>();

  constructor(permissions: EffectivePermission[]) {
    for (const permission of permissions) this.byKey.set(`${permission.collection}:${permission.action}`, permission);
  }

  /** The permission row for a collection and a Refine or Tessera action, if any. */
  get(collection: string, action: string): EffectivePermission | undefined {
    const tesseraAction = ACTION_OF[action] ?? action;
    return this.byKey.get(`${collection}:${tesseraAction}`);
  }

  /** Whether the action is allowed at all on the collection. */
  can(collection: string, action: string): boolean {
    return this.get(collection, action) !== undefined;
  }

  /** Whether a field may be used with the action (`*` allows every field). */
  canField(collection: string, action: string, field: string): boolean {
    const permission = this.get(collection, action);
    if (!permission) return false;
    return permission.fields.includes('*') || permission.fields.includes(field);
  }

  /** Whether the action has no item rule (some operations, e.g. manual sort, need that). */
  isUnrestricted(collection: string, action: string): boolean {
    const permission = this.get(collection, action);
    return Boolean(permission) && Object.keys(permission?.permissions ?? {}).length === 0;
  }
}
