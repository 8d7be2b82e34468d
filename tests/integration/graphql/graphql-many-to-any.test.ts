import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeakFixture, leakedMarkers, MARKERS, type LeakFixture } from '../permissions/leak-fixture.ts';

/** Many-to-any items over GraphQL: a union of the allowed collections the role may read (issue 33). */
let f: LeakFixture;
beforeAll(async () => {
  f = await createLeakFixture();
});
afterAll(() => f.t.close());

const gql = (token: string, query: string) => f.t.request.post('/graphql').set(f.as(token)).set('Accept', 'application/json').send({ query });
const BLOCKS = '{ articles(filter: { title: { _eq: "Pub One" } }) { title blocks { collection item { __typename ... on block_text { text } QUOTE } } } }';

describe('GraphQL many-to-any', () => {
  it('reads each item as its own collection through inline fragments, as REST does', async () => {
    const response = await gql(f.tokens.admin, BLOCKS.replace('QUOTE', '... on block_quote { quote }'));
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.articles).toEqual([
      {
        title: 'Pub One',
        blocks: [
          { collection: 'block_text', item: { __typename: 'block_text', text: 'Intro' } },
          { collection: 'block_quote', item: { __typename: 'block_quote', quote: MARKERS.quote } },
        ],
      },
    ]);
    const union = await gql(f.tokens.admin, '{ __type(name: "articles_blocks_item_union") { possibleTypes { name } } }');
    expect(union.body.data.__type.possibleTypes.map((type: { name: string }) => type.name).sort()).toEqual(['block_quote', 'block_text']);
  });

  it('leaves out of the union a collection the role may not read: its items read as null', async () => {
    const refused = await gql(f.tokens.editor, BLOCKS.replace('QUOTE', '... on block_quote { quote }'));
    expect(refused.status).toBe(400);
    expect(leakedMarkers(refused.body)).toEqual([]);
    const response = await gql(f.tokens.editor, BLOCKS.replace('QUOTE', ''));
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.articles[0].blocks).toEqual([
      { collection: 'block_text', item: { __typename: 'block_text', text: 'Intro' } },
      { collection: 'block_quote', item: null },
    ]);
    expect(leakedMarkers(response.body)).toEqual([]);
  });
});
