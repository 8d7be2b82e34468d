import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

/**
 * Rejects operations nested deeper than `maxDepth` or selecting more than `maxCost` fields (fragments
 * expanded), before anything runs: a validation error answers 400.
 */
export function queryLimitsRule(maxDepth: number, maxCost: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const measure = (set: SelectionSetNode, depth: number, seen: Set<string>): { depth: number; cost: number } => {
      let deepest = depth;
      let cost = 0;
      for (const selection of set.selections) {
        let inner: SelectionSetNode | undefined;
        let level = depth;
        if (selection.kind === Kind.FIELD) {
          if (selection.name.value.startsWith('__')) continue;
          cost += 1;
          inner = selection.selectionSet;
          level = depth + 1;
          deepest = Math.max(deepest, level);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          inner = selection.selectionSet;
        } else {
          const name = selection.name.value;
          if (seen.has(name)) continue;
          inner = context.getFragment(name)?.selectionSet;
          seen = new Set(seen).add(name);
        }
        if (!inner) continue;
        const child = measure(inner, level, seen);
        deepest = Math.max(deepest, child.depth);
        cost += child.cost;
      }
      return { depth: deepest, cost };
    };
    return {
      OperationDefinition(node) {
        const { depth, cost } = measure(node.selectionSet, 0, new Set());
        if (depth > maxDepth) {
          context.reportError(new GraphQLError(`Query depth ${depth} exceeds the maximum of ${maxDepth} (GRAPHQL_QUERY_DEPTH_MAX).`, { nodes: [node], extensions: { code: 'INVALID_QUERY' } }));
        } else if (cost > maxCost) {
          context.reportError(new GraphQLError(`Query selects ${cost} fields, more than the maximum of ${maxCost} (GRAPHQL_QUERY_COST_MAX).`, { nodes: [node], extensions: { code: 'INVALID_QUERY' } }));
        }
      },
    };
  };
}
