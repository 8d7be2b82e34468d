/** Deterministic fake content, so every run seeds the same data set. */

/** mulberry32: a tiny seeded PRNG; good enough for picking words and ids. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 120 words: a 40-word body contains any given word with a probability of about 28%. */
export const WORDS = (
  'alpha amber anchor apple arrow atlas autumn badge banner basil beacon birch blossom breeze bridge bronze cabin ' +
  'canyon carbon cedar chalk cipher citrus cloud cobalt comet copper coral cotton crystal delta desert dune eagle ' +
  'echo ember falcon fern field flint forest fossil galaxy garden glacier granite harbor hazel horizon indigo iris ' +
  'island ivory jasmine jungle kernel lagoon lantern lemon linen lotus lunar maple marble meadow meteor mint mirror ' +
  'mosaic nectar nebula nickel oasis ocean olive onyx orbit orchid pebble pepper pilot planet prairie prism quartz ' +
  'quill radar raven reef ridge river saffron sage sapphire shadow signal silver slate solar spruce summit thistle ' +
  'thunder timber topaz tulip tundra valley velvet violet walnut willow zephyr'
).split(' ');

/** The word the `search` scenario looks for (present in roughly a quarter of the articles). */
export const SEARCH_WORD = 'lantern';

export const STATUSES = ['published', 'published', 'published', 'draft', 'archived'] as const;

const YEAR_MS = 365 * 24 * 3600 * 1000;
const EPOCH = Date.UTC(2026, 0, 1);

function words(rand: () => number, count: number): string {
  const picked: string[] = [];
  for (let i = 0; i < count; i++) picked.push(WORDS[Math.floor(rand() * WORDS.length)]!);
  return picked.join(' ');
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export interface AuthorInput {
  name: string;
  email: string;
}

export interface ArticleInput {
  title: string;
  body: string;
  status: string;
  views: number;
  published_on: string;
  author: number;
}

export function author(index: number): AuthorInput {
  const rand = random(index * 7919 + 1);
  const name = `${capitalised(words(rand, 1))} ${capitalised(words(rand, 1))} ${index}`;
  return { name, email: `author${index}@example.com` };
}

/** An article by one of `authorIds`; `rand` decides everything, so a seeded rand gives a seeded article. */
export function article(rand: () => number, authorIds: readonly number[]): ArticleInput {
  return {
    title: capitalised(words(rand, 3 + Math.floor(rand() * 4))),
    body: `${capitalised(words(rand, 30 + Math.floor(rand() * 20)))}.`,
    status: STATUSES[Math.floor(rand() * STATUSES.length)]!,
    views: Math.floor(rand() * 1000),
    published_on: new Date(EPOCH - Math.floor(rand() * 3 * YEAR_MS)).toISOString(),
    author: authorIds[Math.floor(rand() * authorIds.length)]!,
  };
}
