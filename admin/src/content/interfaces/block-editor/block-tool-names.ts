/** The block editor's tools by Directus's names (`options.tools`), in the options form's order. */
export const BLOCK_TOOLS = ['header', 'paragraph', 'nestedlist', 'list', 'checklist', 'quote', 'code', 'image', 'table', 'delimiter', 'raw', 'underline', 'inlinecode'] as const;

/** A tool's Directus name. */
export type BlockToolName = (typeof BLOCK_TOOLS)[number];

/** Directus's default tools. */
export const DEFAULT_BLOCK_TOOLS: readonly BlockToolName[] = ['header', 'nestedlist', 'code', 'image', 'paragraph', 'checklist', 'quote', 'underline'];

/** The tools an `options.tools` asks for, without names the editor does not have (Directus's embed, attaches, toggle, alignment). */
export function blockToolsOf(option: unknown): BlockToolName[] {
  const names: readonly unknown[] = Array.isArray(option) ? option : DEFAULT_BLOCK_TOOLS;
  return BLOCK_TOOLS.filter((name) => names.includes(name));
}
