import DOMPurify from 'dompurify';

/** One block of Editor.js's output. */
export interface Block {
  id?: string;
  type: string;
  data: Record<string, unknown>;
  tunes?: Record<string, unknown>;
}

/** Editor.js's output as the block editor stores it (Directus's shape): `{ time, blocks, version }`. */
export interface BlockData {
  time?: number;
  version?: string;
  blocks: Block[];
}

/** Blocks whose text the tools put in a text area (never parsed as HTML): their data stays as written. */
const PLAIN_TEXT_BLOCKS = new Set(['code', 'raw']);

function clean(value: unknown): unknown {
  if (typeof value === 'string') return DOMPurify.sanitize(value);
  if (Array.isArray(value)) return value.map(clean);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, clean(inner)]));
  return value;
}

/** A stored value as block data (a JSON string is read too), null when it holds no blocks. */
export function blockDataOf(value: unknown): BlockData | null {
  let data = value;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (!data || typeof data !== 'object' || !Array.isArray((data as BlockData).blocks)) return null;
  const blocks = (data as BlockData).blocks.filter((block): block is Block => Boolean(block) && typeof block.type === 'string' && Boolean(block.data) && typeof block.data === 'object');
  return blocks.length > 0 ? { ...(data as BlockData), blocks } : null;
}

/**
 * Block data safe to hand Editor.js: tools write their text into the page as HTML (a paragraph's
 * `innerHTML`), so every string is sanitised first, as Directus does; a stored `<img onerror>` never runs.
 */
export function sanitizeBlocks(data: BlockData): BlockData {
  return { ...data, blocks: data.blocks.map((block) => (PLAIN_TEXT_BLOCKS.has(block.type) ? block : { ...block, data: clean(block.data) as Record<string, unknown> })) };
}
