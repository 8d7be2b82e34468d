import { useSyncExternalStore } from 'react';

/** Entries of one kind (interfaces, displays, …) by id; built-ins and extensions register the same way. */
export interface Registry<T extends { id: string }> {
  /** Adds an entry; a later entry with the same id replaces it until it is removed. Returns how to remove it. */
  register(entry: T): () => void;
  get(id: string | null | undefined): T | undefined;
  list(): readonly T[];
  subscribe(listener: () => void): () => void;
}

export function createRegistry<T extends { id: string }>(): Registry<T> {
  const entries = new Map<string, T[]>();
  const listeners = new Set<() => void>();
  let snapshot: readonly T[] = [];
  const changed = () => {
    snapshot = [...entries.values()].map((stack) => stack.at(-1)!);
    for (const listener of listeners) listener();
  };
  return {
    register(entry) {
      const stack = entries.get(entry.id) ?? [];
      stack.push(entry);
      entries.set(entry.id, stack);
      changed();
      return () => {
        const current = entries.get(entry.id) ?? [];
        const index = current.indexOf(entry);
        if (index < 0) return;
        current.splice(index, 1);
        if (current.length === 0) entries.delete(entry.id);
        changed();
      };
    },
    get: (id) => (id ? entries.get(id)?.at(-1) : undefined),
    list: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The entries of a registry, re-rendering when one is added or removed. */
export function useRegistry<T extends { id: string }>(registry: Registry<T>): readonly T[] {
  return useSyncExternalStore(registry.subscribe, registry.list, registry.list);
}
