import { sql } from 'kysely';
import { column, type CompileContext, type Scope, type Sql } from './context.ts';
import { relatedList, relatedObject } from './compile-selection.ts';
import { outputValue } from './output-value.ts';
import type { SelectionTree } from './selection.ts';

/**
 * The keys of an item's JSON text in another API's shape (GraphQL's): each key reads a selected field
 * (`source`, a key of the REST item), as its JSON or, with `asString`, as a JSON string of its text; `fields`
 * shapes a relation's items the same way; `constant` is a JSON string of its own.
 */
export type TextShape = ReadonlyArray<{ key: string; constant: string } | { key: string; source: string; asString?: boolean; fields?: TextShape }>;

/**
 * An item of the scope as JSON text in `shape`, built straight from the columns by concatenation (cheaper for
 * PostgreSQL than json_build_object, and without its spaces): `{"key":value,…}`, null relations as `null`,
 * empty lists as `[]`. The tree is the REST selection the shape's sources were read into.
 */
export function compileTextObject(ctx: CompileContext, scope: Scope, tree: SelectionTree, shape: TextShape): Sql {
  if (shape.length === 0) return sql`'{}'::text`;
  const parts = shape.map((entry, index) => {
    const prefix = `${index === 0 ? '{' : ','}${JSON.stringify(entry.key)}:`;
    if ('constant' in entry) return sql`${prefix + JSON.stringify(entry.constant)}::text`;
    const selection = tree.selections.find((candidate) => candidate.key === entry.source);
    let value: Sql;
    switch (selection?.kind) {
      case 'column': {
        const output = outputValue(selection.field, column(scope, selection.field.field));
        value = entry.asString ? sql`to_json((${output})::text)::text` : sql`to_json(${output})::text`;
        break;
      }
      case 'm2o': {
        const { field, relation, related } = selection;
        value = relatedObject(ctx, scope, related, (inner) => sql`${column(inner, relation.related.primary)} = ${column(scope, field)}`, (inner) => compileTextObject(ctx, inner, related.tree, entry.fields ?? []));
        break;
      }
      case 'o2m': {
        const { tree: related } = selection;
        if (!related) throw new Error(`The text shape reads "${entry.source}" as objects, but the selection has its keys only.`);
        value = relatedList(ctx, scope, selection, tree.prefix, (inner) => compileTextObject(ctx, inner, related, entry.fields ?? []));
        break;
      }
      default:
        throw new Error(`The text shape reads "${entry.source}", which the selection does not hold as a column or relation.`);
    }
    return sql`${prefix}::text || coalesce(${value}, 'null')`;
  });
  return sql`(${sql.join(parts, sql` || `)} || '}')`;
}
