import type { AnswerDependence } from '../cache/answer-dependence.ts';
import type { CompiledQuery } from 'kysely';
import type { BoundKeys } from './bound-keys.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import type { CompiledRead } from './compile-read.ts';
import type { Query, ReadOptions } from './types.ts';

/**
 * A read compiled once: its SQL text and parameters (kept without kysely's operation tree, which a kept read
 * does not need and which is most of a compiled statement's memory), and the rest of what running it needs.
 */
export interface ReusableRead {
  meta: CompiledRead['meta'];
  counts: CompiledRead['counts'];
  cursor?: CompiledRead['cursor'];
  statement: CompiledQuery;
  /** The key lists of the query it was compiled for, whose values each run replaces with its own (bound-keys.ts). */
  keys: readonly BoundKeys[];
  /** Whether its statement holds a value of the caller's own or of the clock (answer-dependence.ts). */
  dependsOn: AnswerDependence;
}

/** Entries per schema overview, least recently used first out. */
const MAX_ENTRIES = 500;

/**
 * Compiled reads by schema overview: a schema change, and every change of roles or permissions, builds a
 * new overview (server/app-context.ts), so the entries compiled under the old rules are never found again.
 */
const bySchema = new WeakMap<SchemaOverview, Map<string, ReusableRead>>();

/**
 * The key a compiled read may be found again under, or null when it must be compiled for this read alone:
 * no `reuseIdentity` (the caller's rules are per share or change with the clock), a GraphQL text shape
 * (GraphQL keeps its own document cache), `$NOW` in the query (its value is bound per statement), or an
 * `after` cursor, at the root or in `deep` (each page has its own, and would push the reads worth keeping out).
 * A query that reads `$CURRENT_USER` is kept per user. Key lists of reads by key (BoundKeys) read alike
 * whatever their keys, so every read of one item shape shares an entry.
 */
export function reuseKey(collection: string, query: Query, options: ReadOptions): string | null {
  if (options.reuseIdentity == null || options.textShape || query.after !== undefined) return null;
  const text = JSON.stringify(query);
  // A nested list's `_after` (DeepQuery.after) changes with every page: a compiled read kept for it would be used once.
  if (query.deep && text.includes('"after":')) return null;
  if (text.includes('$NOW')) return null;
  const user = text.includes('$CURRENT_USER') ? (options.accountability?.user ?? '') : '';
  return `${collection}\n${options.asText ? 'text' : 'json'}${options.versionKey ? '+version' : ''}\n${options.timeZone ?? ''}\n${options.reuseIdentity}\n${user}\n${text}`;
}

/** The read compiled under `key`, compiling and keeping it on first use. */
export function reusableRead(schema: SchemaOverview, key: string | null, compile: () => ReusableRead): ReusableRead {
  if (key === null) return compile();
  let entries = bySchema.get(schema);
  if (!entries) bySchema.set(schema, (entries = new Map()));
  const known = entries.get(key);
  if (known) {
    entries.delete(key);
    entries.set(key, known);
    return known;
  }
  const read = compile();
  entries.set(key, read);
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  return read;
}

/** How many compiled reads are kept for this overview (for tests and diagnostics). */
export function keptReads(schema: SchemaOverview): number {
  return bySchema.get(schema)?.size ?? 0;
}
