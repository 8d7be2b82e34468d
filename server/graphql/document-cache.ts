import { GraphQLError, Kind, parse, validate, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type ValidationRule } from 'graphql';

/** A query text parsed and validated against one schema: its document, or the errors that refuse it. */
export type CheckedDocument = { document: DocumentNode; errors?: undefined } | { document?: undefined; errors: readonly GraphQLError[] };

/** Query texts remembered per schema; the oldest is forgotten past this (clients send few distinct queries). */
const MAX_PER_SCHEMA = 500;

/**
 * Parses and validates query texts once per schema: front-ends send the same few queries over and over, and
 * parse + validate (every spec rule, our limits) cost more than a small read. A schema rebuilt after a schema
 * or permission change is a new object, so its documents are checked afresh; old ones go with the old schema.
 */
export function createDocumentCache(rules: readonly ValidationRule[]): (schema: GraphQLSchema, query: string) => CheckedDocument {
  const bySchema = new WeakMap<GraphQLSchema, Map<string, CheckedDocument>>();
  return (schema, query) => {
    let checked = bySchema.get(schema);
    if (!checked) bySchema.set(schema, (checked = new Map()));
    const known = checked.get(query);
    if (known) return known;
    let result: CheckedDocument;
    try {
      const document = parse(query);
      const errors = validate(schema, document, rules);
      result = errors.length > 0 ? { errors } : { document };
    } catch (error) {
      result = { errors: [error instanceof GraphQLError ? error : new GraphQLError(String(error))] };
    }
    if (checked.size >= MAX_PER_SCHEMA) checked.delete(checked.keys().next().value!);
    checked.set(query, result);
    return result;
  };
}

const fragmentsByDocument = new WeakMap<DocumentNode, Record<string, FragmentDefinitionNode>>();

/** A document's fragment definitions by name (kept with the cached document, so found once per query text). */
export function fragmentsOf(document: DocumentNode): Record<string, FragmentDefinitionNode> {
  let fragments = fragmentsByDocument.get(document);
  if (fragments) return fragments;
  fragments = {};
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  fragmentsByDocument.set(document, fragments);
  return fragments;
}
