import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { CollectionOverview, FieldOverview, RelationOverview, SchemaOverview } from '../../server/schema/overview.ts';
import { DATA_TYPES } from '../../server/schema/field-overview.ts';
import type { FieldType } from '../../server/schema/types.ts';
import { createMigratedDatabase } from './test-database.ts';

/** The fixture tables store JSON in `json` columns; everything else as Tessera creates it. */
const DB_TYPES: Readonly<Record<FieldType, string | null>> = { ...DATA_TYPES, json: 'json' };

/** A field of a hand-built schema overview; `options` override what the type implies. */
export function field(name: string, type: FieldType, options: Partial<FieldOverview> = {}): FieldOverview {
  const concealed = options.concealed ?? type === 'hash';
  return {
    field: name,
    type,
    dbType: DB_TYPES[type],
    alias: type === 'alias',
    primaryKey: false,
    nullable: true,
    defaultValue: null,
    generated: false,
    maxLength: null,
    precision: null,
    scale: null,
    unique: false,
    indexed: false,
    special: [],
    concealed,
    searchable: !concealed && ['string', 'text', 'csv'].includes(type),
    meta: null,
    ...options,
  };
}

/** A collection of a hand-built schema overview; its first field is the primary key. */
export function collection(name: string, fields: FieldOverview[], options: Partial<CollectionOverview> = {}): CollectionOverview {
  const [primary] = fields;
  if (!primary) throw new Error(`collection ${name} needs fields`);
  return {
    collection: name,
    primary: primary.field,
    table: true,
    system: name.startsWith('tessera_'),
    singleton: false,
    sortField: null,
    accountability: 'all',
    archive: null,
    meta: null,
    fields: Object.fromEntries(fields.map((item, index) => [item.field, index === 0 ? { ...item, primaryKey: true, nullable: false } : item])),
    ...options,
  };
}

/** A relation of a hand-built schema overview (stored on the many side). */
export function relation(many: string, manyField: string, one: string | null, meta: Partial<RelationOverview['meta']> = {}): RelationOverview {
  return {
    collection: many,
    field: manyField,
    relatedCollection: one,
    meta: {
      id: null,
      oneField: null,
      oneCollectionField: null,
      oneAllowedCollections: null,
      junctionField: null,
      sortField: null,
      oneDeselectAction: 'nullify',
      ...meta,
    },
    schema: null,
  };
}

const id = (type: FieldType = 'integer'): FieldOverview => field('id', type, { generated: true });
const m2o = (name: string, type: FieldType = 'integer'): FieldOverview => field(name, type, { special: ['m2o'] });
const alias = (name: string, special: 'o2m' | 'm2m' | 'm2a'): FieldOverview => field(name, 'alias', { special: [special] });

/** The query fixture: authors, articles (m2o author, o2m comments, m2m tags, m2a blocks), users and roles. */
export function fixtureSchema(): SchemaOverview {
  const collections = [
    collection('tessera_users', [id('uuid'), field('first_name', 'string'), field('email', 'string'), field('password', 'hash'), m2o('role', 'uuid')]),
    collection('tessera_roles', [id('uuid'), field('name', 'string')]),
    collection('authors', [id(), field('name', 'string'), field('active', 'boolean'), field('born', 'date'), m2o('owner', 'uuid'), alias('articles', 'o2m')]),
    collection('articles', [
      id(),
      field('title', 'string'),
      field('body', 'text'),
      field('status', 'string'),
      field('rating', 'integer'),
      field('price', 'decimal'),
      field('views', 'bigInteger'),
      field('score', 'float'),
      field('published_on', 'date'),
      field('published_at', 'timestamp'),
      field('local_at', 'dateTime'),
      field('reminder', 'time'),
      field('meta', 'json'),
      field('keywords', 'csv', { special: ['cast-csv'] }),
      field('secret', 'string', { concealed: true, special: ['conceal'] }),
      field('uid', 'uuid'),
      m2o('author'),
      alias('comments', 'o2m'),
      alias('tags', 'm2m'),
      alias('blocks', 'm2a'),
      field('layout', 'alias', { special: ['group'] }),
    ]),
    collection('comments', [id(), m2o('article'), field('body', 'text'), field('approved', 'boolean')]),
    collection('tags', [id(), field('name', 'string')]),
    collection('articles_tags', [id(), m2o('articles_id'), m2o('tags_id')]),
    collection('block_text', [id(), field('text', 'text')]),
    collection('block_image', [id(), field('url', 'string'), field('alt', 'string')]),
    collection('articles_blocks', [id(), m2o('articles_id'), field('item', 'string'), field('collection', 'string'), field('sort', 'integer')]),
  ];
  return {
    collections: Object.fromEntries(collections.map((item) => [item.collection, item])),
    relations: [
      relation('tessera_users', 'role', 'tessera_roles'),
      relation('authors', 'owner', 'tessera_users'),
      relation('articles', 'author', 'authors', { oneField: 'articles' }),
      relation('comments', 'article', 'articles', { oneField: 'comments' }),
      relation('articles_tags', 'articles_id', 'articles', { oneField: 'tags', junctionField: 'tags_id' }),
      relation('articles_tags', 'tags_id', 'tags', { junctionField: 'articles_id' }),
      relation('articles_blocks', 'articles_id', 'articles', { oneField: 'blocks', junctionField: 'item', sortField: 'sort' }),
      relation('articles_blocks', 'item', null, {
        oneCollectionField: 'collection',
        oneAllowedCollections: ['block_text', 'block_image'],
        junctionField: 'articles_id',
      }),
    ],
  };
}

/** Ids the fixture rows use. */
export const FIXTURE_IDS = {
  ada: '11111111-1111-4111-8111-111111111111',
  editors: '22222222-2222-4222-8222-222222222222',
  articleUid: '33333333-3333-4333-8333-333333333333',
} as const;

const FIXTURE_SQL = [
  `insert into tessera_roles (id, name) values ('${FIXTURE_IDS.editors}', 'Editors')`,
  `insert into tessera_users (id, first_name, email, password, role)
     values ('${FIXTURE_IDS.ada}', 'Ada Lovelace', 'ada@example.com', 'argon2-hash', '${FIXTURE_IDS.editors}')`,
  `create table authors (id serial primary key, name varchar(255) not null, active boolean not null, born date,
     owner uuid references tessera_users (id))`,
  `create table articles (id serial primary key, title varchar(255) not null, body text, status varchar(20) not null,
     rating integer, price numeric(10, 2), views bigint, score double precision, published_on date, published_at timestamptz,
     local_at timestamp, reminder time, meta json, keywords text, secret varchar(255), uid uuid, author integer references authors (id))`,
  `create table comments (id serial primary key, article integer references articles (id), body text, approved boolean not null)`,
  `create table tags (id serial primary key, name varchar(255))`,
  `create table articles_tags (id serial primary key, articles_id integer references articles (id), tags_id integer references tags (id))`,
  `create table block_text (id serial primary key, text text)`,
  `create table block_image (id serial primary key, url varchar(255), alt varchar(255))`,
  `create table articles_blocks (id serial primary key, articles_id integer references articles (id), item varchar(255),
     collection varchar(64), sort integer)`,
  `insert into authors (name, active, born, owner) values ('Ada Lovelace', true, '1815-12-10', '${FIXTURE_IDS.ada}'),
     ('Brian Kernighan', true, '1942-01-01', null), ('Hidden Hal', false, null, null)`,
  `insert into articles (title, body, status, rating, price, views, score, published_on, published_at, local_at, reminder, meta, keywords, secret, uid, author) values
     ('Hello World', 'First body', 'published', 5, 10.50, 9007199254740993, 4.5, '2024-01-15', '2024-01-15T10:30:00Z', '2024-01-15 10:30:00',
       '09:15:00', '{"a":1,"list":["x"]}', 'red,green', 'SECRET-ONE', '${FIXTURE_IDS.articleUid}', 1),
     ('Second Post', 'Another body', 'published', 3, 20.00, 5, 2.25, '2023-06-01', '2023-06-01T08:00:00Z', '2023-06-01 08:00:00',
       null, null, 'blue', null, null, 2),
     ('Draft idea', 'SECRET draft body', 'draft', null, null, null, null, '2024-03-10', now() - interval '2 hours', '2024-03-10 23:15:00',
       null, '[]', '', 'SECRET-THREE', null, 1),
     ('Hidden gem', 'Gem body', 'published', 4, 7.25, 100, 1.5, '2024-01-20', now() + interval '2 days', '2024-01-20 06:00:00',
       null, null, null, null, null, 3),
     ('100% off_sale', null, 'archived', 1, 0.99, 0, 0, null, null, null, null, null, null, null, null, null)`,
  `insert into comments (article, body, approved) values (1, 'Great post', true), (1, 'SECRET spam', false), (1, 'Thanks', true), (2, 'Nice', true)`,
  `insert into tags (name) values ('news'), ('tech'), ('secret-tag')`,
  `insert into articles_tags (articles_id, tags_id) values (1, 1), (1, 2), (2, 2), (4, 3), (1, 3)`,
  `insert into block_text (text) values ('Intro text'), ('SECRET block')`,
  `insert into block_image (url, alt) values ('a.png', 'A picture')`,
  `insert into articles_blocks (articles_id, item, collection, sort) values
     (1, '1', 'block_text', 1), (1, '1', 'block_image', 2), (1, '2', 'block_text', 3), (2, '1', 'block_text', 1)`,
];

/** A migrated database holding the fixture, a Kysely that records every statement, and the fixture schema. */
export interface QueryFixture {
  db: Kysely<any>;
  schema: SchemaOverview;
  /** SQL of every statement run through `db`, in order; tests may clear it. */
  statements: string[];
  close(): Promise<void>;
}

/** Creates a database from the migrated template, the fixture tables and rows, and a logging Kysely on it. */
export async function openQueryFixture(): Promise<QueryFixture> {
  const database = await createMigratedDatabase();
  const statements: string[] = [];
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // Dropping the database ends its connections; one the pool is still closing must not become an uncaught error.
  pool.on('error', () => undefined);
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      statements.push(event.query.sql);
    },
  });
  for (const statement of FIXTURE_SQL) await sql.raw(statement).execute(db);
  statements.length = 0;
  return {
    db,
    schema: fixtureSchema(),
    statements,
    async close() {
      await db.destroy();
      await database.drop();
    },
  };
}
