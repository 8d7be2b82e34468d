/** A field's earlier values, from an item's revisions. Pure logic. */

/** One earlier value of a field: what it became, when and by whom. */
export interface FieldChange {
  value: unknown;
  timestamp: string | null;
  user: string | null;
}

/** The parts of a revision the history reads. */
export interface Revision {
  delta: Record<string, unknown> | null;
  activity: { timestamp: string; user: { first_name: string | null; last_name: string | null; email: string | null } | null } | null;
}

/** The changes each field went through, newest first, from an item's revisions. Pure. */
export function changesByField(revisions: Revision[]): Map<string, FieldChange[]> {
  const byField = new Map<string, FieldChange[]>();
  for (const revision of revisions) {
    const user = revision.activity?.user;
    const who = user ? [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email : null;
    for (const [field, value] of Object.entries(revision.delta ?? {})) {
      const list = byField.get(field) ?? [];
      list.push({ value, timestamp: revision.activity?.timestamp ?? null, user: who });
      byField.set(field, list);
    }
  }
  return byField;
}
