import { buildSchema, parse, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { queryLimitsRule } from '../../../server/graphql/limits.ts';

const schema = buildSchema('type Node { id: ID, name: String, child: Node } type Query { node: Node, nodes: [Node] }');
const check = (source: string, depth: number, cost: number) => validate(schema, parse(source), [...specifiedRules, queryLimitsRule(depth, cost)]).map((error) => error.message);

describe('queryLimitsRule', () => {
  it('counts depth and cost through fragments, and ignores introspection fields', () => {
    expect(check('{ node { child { id } } }', 3, 100)).toEqual([]);
    expect(check('{ node { child { child { id } } } }', 3, 100)).toEqual(['Query depth 4 exceeds the maximum of 3 (GRAPHQL_QUERY_DEPTH_MAX).']);
    expect(check('{ node { ...F } } fragment F on Node { child { child { id } } }', 3, 100)).toEqual(['Query depth 4 exceeds the maximum of 3 (GRAPHQL_QUERY_DEPTH_MAX).']);
    expect(check('{ a: node { id name } b: node { id name } __typename }', 5, 6)).toEqual([]);
    expect(check('{ a: node { id name } b: node { id name } c: node { id } }', 5, 6)).toEqual(['Query selects 8 fields, more than the maximum of 6 (GRAPHQL_QUERY_COST_MAX).']);
  });
});
