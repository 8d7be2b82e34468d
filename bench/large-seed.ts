/**
 * Grows the large-tables data set (bench/large-tables.ts) with SQL, `insert … select generate_series`, straight
 * into the tables the API created: seeding through the API runs at ~2,000 items/s, a million would take hours.
 * Deterministic: row g always gets the same content, so every run measures the same data.
 */
import pg from 'pg';
import { WORDS } from './data.ts';
import { sqlTransaction } from './seed.ts';

/** The rare word of the `search_rare` scenario: in one title of 1,000. */
export const RARE_WORD = 'quasar';

/** How many rows each table holds at `articles` articles. */
export function shapeOf(articles: number): { articles: number; authors: number; parents: number; children: number } {
  return { articles, authors: Math.max(100, articles / 10), parents: Math.max(100, articles / 10), children: 1000 };
}

/** Children of the m2m data set: a fixed 1,000. Each parent links to 10 of them. */
const LINKS_PER_PARENT = 10;

async function count(client: pg.Client, table: string): Promise<number> {
  return Number((await client.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n);
}

/**
 * Inserts what brings the tables from their current size to `shapeOf(articles)`, then `vacuum analyze` (what
 * autovacuum would do within a minute). Returns the milliseconds it took.
 */
export async function growTo(databaseUrl: string, articles: number, log: (line: string) => void): Promise<number> {
  const target = shapeOf(articles);
  const ms = await sqlTransaction(
    databaseUrl,
    async (client) => {
      const have = { articles: await count(client, 'articles'), authors: await count(client, 'authors'), parents: await count(client, 'parents'), children: await count(client, 'children') };
      await client.query(`insert into authors (name, email) select 'Author ' || g, 'author' || g || '@example.com' from generate_series($1::int + 1, $2::int) as g`, [have.authors, target.authors]);
      // Titles of 3 words (the rare word in one of 1,000), bodies of 30, picked by multiplicative hashing of g.
      await client.query(
        `insert into articles (title, body, status, views, published_on, author)
         select initcap(w[1 + (g * 7 % 120)]) || ' ' || w[1 + (g * 13 % 120)] || ' ' || w[1 + (g * 17 % 120)] || case when g % 1000 = 0 then ' ${RARE_WORD}' else '' end,
                (select string_agg(w[1 + ((g::bigint * 2654435761 + k * 40503) % 120)::int], ' ') from generate_series(1, 30) as k) || '.',
                (array['published', 'published', 'published', 'draft', 'archived'])[1 + g % 5],
                (g::bigint * 7919 % 1000)::int,
                timestamptz '2026-01-01 00:00:00+00' - ((g::bigint * 104729) % (3 * 365 * 24 * 3600)) * interval '1 second',
                1 + (g::bigint * 31 % $3::int)::int
           from generate_series($1::int + 1, $2::int) as g, (select $4::text[] as w) as words`,
        [have.articles, target.articles, target.authors, WORDS],
      );
      await client.query(`insert into children (label) select 'Child ' || g from generate_series($1::int + 1, $2::int) as g`, [have.children, target.children]);
      await client.query(`insert into parents (name, rank) select 'Parent ' || g, g % 97 from generate_series($1::int + 1, $2::int) as g`, [have.parents, target.parents]);
      await client.query(
        `insert into parents_children (parents_id, children_id)
           select p.id, ((p.id * $1::int + k) % $2::int) + 1
             from parents as p cross join generate_series(0, $1::int - 1) as k
            where p.id > $3::int
            order by p.id, k`,
        [LINKS_PER_PARENT, target.children, have.parents],
      );
    },
    'vacuum analyze',
  );
  log(`  grew to ${target.articles} articles, ${target.authors} authors, ${target.parents} parents x ${LINKS_PER_PARENT} children in ${(ms / 1000).toFixed(1)} s (SQL, then vacuum analyze)`);
  return ms;
}
