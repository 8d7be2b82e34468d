import type { Extension } from '@codemirror/state';

/** How a language's highlighting loads: its own chunk, fetched the first time a field uses it. */
type Loader = () => Promise<Extension>;

/** A legacy (CodeMirror 5) mode, as CodeMirror 6 runs it. */
async function legacy(load: () => Promise<Record<string, unknown>>, name: string): Promise<Extension> {
  const [{ StreamLanguage }, mode] = await Promise.all([import('@codemirror/language'), load()]);
  return StreamLanguage.define(mode[name] as Parameters<typeof StreamLanguage.define>[0]);
}

/**
 * The languages of the code interface under Directus's names for them (CodeMirror 5's mode names, as
 * Directus schemas and snapshots store `options.language`), with the name shown in the options form.
 */
export const CODE_LANGUAGES = {
  plaintext: { name: 'Plain text', load: null },
  JSON: { name: 'JSON', load: () => import('@codemirror/lang-json').then((module) => module.json()) },
  javascript: { name: 'JavaScript / TypeScript', load: () => import('@codemirror/lang-javascript').then((module) => module.javascript({ typescript: true, jsx: true })) },
  htmlmixed: { name: 'HTML', load: () => import('@codemirror/lang-html').then((module) => module.html()) },
  css: { name: 'CSS', load: () => import('@codemirror/lang-css').then((module) => module.css()) },
  markdown: { name: 'Markdown', load: () => import('@codemirror/lang-markdown').then((module) => module.markdown()) },
  sql: { name: 'SQL', load: () => import('@codemirror/lang-sql').then((module) => module.sql()) },
  yaml: { name: 'YAML', load: () => import('@codemirror/lang-yaml').then((module) => module.yaml()) },
  xml: { name: 'XML', load: () => import('@codemirror/lang-xml').then((module) => module.xml()) },
  python: { name: 'Python', load: () => import('@codemirror/lang-python').then((module) => module.python()) },
  shell: { name: 'Shell', load: () => legacy(() => import('@codemirror/legacy-modes/mode/shell'), 'shell') },
  clike: { name: 'C / C++', load: () => legacy(() => import('@codemirror/legacy-modes/mode/clike'), 'cpp') },
  go: { name: 'Go', load: () => legacy(() => import('@codemirror/legacy-modes/mode/go'), 'go') },
  rust: { name: 'Rust', load: () => legacy(() => import('@codemirror/legacy-modes/mode/rust'), 'rust') },
  ruby: { name: 'Ruby', load: () => legacy(() => import('@codemirror/legacy-modes/mode/ruby'), 'ruby') },
  lua: { name: 'Lua', load: () => legacy(() => import('@codemirror/legacy-modes/mode/lua'), 'lua') },
  swift: { name: 'Swift', load: () => legacy(() => import('@codemirror/legacy-modes/mode/swift'), 'swift') },
  toml: { name: 'TOML', load: () => legacy(() => import('@codemirror/legacy-modes/mode/toml'), 'toml') },
  dockerfile: { name: 'Dockerfile', load: () => legacy(() => import('@codemirror/legacy-modes/mode/dockerfile'), 'dockerFile') },
  nginx: { name: 'Nginx', load: () => legacy(() => import('@codemirror/legacy-modes/mode/nginx'), 'nginx') },
  properties: { name: 'Properties / INI', load: () => legacy(() => import('@codemirror/legacy-modes/mode/properties'), 'properties') },
  diff: { name: 'Diff', load: () => legacy(() => import('@codemirror/legacy-modes/mode/diff'), 'diff') },
  powershell: { name: 'PowerShell', load: () => legacy(() => import('@codemirror/legacy-modes/mode/powershell'), 'powerShell') },
} satisfies Record<string, { name: string; load: Loader | null }>;

/** A language's Directus name. */
export type CodeLanguage = keyof typeof CODE_LANGUAGES;

/** Directus's names, in the order the options form lists them. */
export const CODE_LANGUAGE_IDS = Object.keys(CODE_LANGUAGES) as CodeLanguage[];

/** Other spellings stored options use (Tessera's earlier names, file extensions). */
const ALIASES: Record<string, CodeLanguage> = { json: 'JSON', html: 'htmlmixed', js: 'javascript', typescript: 'javascript', ts: 'javascript', sh: 'shell', bash: 'shell', c: 'clike', cpp: 'clike', yml: 'yaml', text: 'plaintext' };

/** The language an option names (any case, or an alias), null when unknown or none. */
export function codeLanguage(name: unknown): CodeLanguage | null {
  if (typeof name !== 'string' || name === '') return null;
  const lower = name.toLowerCase();
  return CODE_LANGUAGE_IDS.find((id) => id.toLowerCase() === lower) ?? ALIASES[lower] ?? null;
}
