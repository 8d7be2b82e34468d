import type { ItemKey } from './item-keys.ts';
import type { ItemsContext } from './items-service.ts';

type Payload = Record<string, unknown>;

/** What a rule is told about the write it checks. */
export interface RuleWrite {
  /** The service context of the write (its transaction, caller, schema overview and access). */
  context: ItemsContext;
  mode: 'create' | 'update';
  /** The items an update changes; empty for a create. */
  keys: ItemKey[];
}

/**
 * A per-collection rule (SPEC.md §5 validation, defaults, side effects): gets the payload the caller may
 * write and returns it as the collection accepts it (normalised, defaults filled), or throws a 4xx naming
 * the field. Returning nothing keeps the payload as it was.
 */
export type CollectionRule = (payload: Payload, write: RuleWrite) => Payload | void | Promise<Payload | void>;

/**
 * The registry of per-collection rules: the one home of what a collection checks on every write, whatever
 * the route (REST, GraphQL, flows, extensions, snapshots). The composition root (server/builtins.ts)
 * registers the system collections' rules; a collection with no rule costs one map lookup per write.
 */
export class CollectionRules {
  readonly #rules = new Map<string, CollectionRule[]>();

  /** Adds a rule for `collection` (run after the ones registered before it); returns how to remove it. */
  register(collection: string, rule: CollectionRule): () => void {
    const list = this.#rules.get(collection) ?? [];
    this.#rules.set(collection, [...list, rule]);
    return () => {
      const remaining = (this.#rules.get(collection) ?? []).filter((entry) => entry !== rule);
      if (remaining.length > 0) this.#rules.set(collection, remaining);
      else this.#rules.delete(collection);
    };
  }

  /** Whether `collection` has a rule (the one-statement create is for collections without). */
  has(collection: string): boolean {
    return this.#rules.has(collection);
  }

  /** The collections that have rules (for docs and tests). */
  collections(): string[] {
    return [...this.#rules.keys()].sort();
  }

  /** Runs the rules of `collection` in order, each on the payload the previous one returned. */
  async apply(context: ItemsContext, collection: string, payload: Payload, mode: 'create' | 'update', keys: ItemKey[] = []): Promise<Payload> {
    const rules = this.#rules.get(collection);
    if (!rules) return payload;
    let current = payload;
    for (const rule of rules) current = (await rule(current, { context, mode, keys })) ?? current;
    return current;
  }
}
