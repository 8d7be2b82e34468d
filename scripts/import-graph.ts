import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** How a file imports another: a value import (runs the module) or `import type` / `export type` (erased). */
export type ImportKind = 'value' | 'type';

/** One static import between two server files, with the top-level folders they lie in. */
export interface ImportEdge {
  from: string;
  to: string;
  kind: ImportKind;
}

/** The folder-level import graph of a source tree: for each folder, the folders its files import. */
export interface FolderGraph {
  /** Folder → folders it imports with value imports. */
  value: Map<string, Set<string>>;
  /** Folder → folders it imports only through `import type` (never a load-time dependency). */
  typeOnly: Map<string, Set<string>>;
  /** Every file-level import that crosses folders, for explaining an edge. */
  edges: ImportEdge[];
}

// Static imports and re-exports only: `import('…')` loads on demand, so it never forms a load-time cycle.
const STATIC_IMPORT = /^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * The node `file` belongs to: its top-level folder under `root`, or for a file directly in `root` the file
 * itself (errors.ts or logger.ts are leaves every folder uses; lumping them into one "." node would invent cycles).
 */
export function folderOf(root: string, file: string): string {
  return path.relative(root, file).split(path.sep)[0]!;
}

/** Whether every name an import brings in is marked `type` (`import { type A, type B }`). */
function namesAreAllTypes(clause: string): boolean {
  const braces = /\{([^}]*)\}/.exec(clause);
  if (!braces || /^\s*\w+\s*,/.test(clause) || /\*\s+as/.test(clause)) return false;
  const names = braces[1]!.split(',').map((name) => name.trim()).filter(Boolean);
  return names.length > 0 && names.every((name) => name.startsWith('type '));
}

/** Reads every .ts file under `root` and builds its folder-level import graph (relative imports only). */
export function buildFolderGraph(root: string): FolderGraph {
  const graph: FolderGraph = { value: new Map(), typeOnly: new Map(), edges: [] };
  for (const file of sourceFiles(root)) {
    const from = folderOf(root, file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(STATIC_IMPORT)) {
      const specifier = match[4]!;
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (path.relative(root, target).startsWith('..')) continue;
      const to = folderOf(root, target);
      if (to === from) continue;
      const kind: ImportKind = match[2] || namesAreAllTypes(match[3] ?? '') ? 'type' : 'value';
      graph.edges.push({ from: path.relative(root, file), to: path.relative(root, target), kind });
      const map = kind === 'value' ? graph.value : graph.typeOnly;
      let targets = map.get(from);
      if (!targets) map.set(from, (targets = new Set()));
      targets.add(to);
    }
  }
  for (const [from, targets] of graph.typeOnly) for (const to of targets) if (graph.value.get(from)?.has(to)) targets.delete(to);
  return graph;
}

/** The strongly connected components of a graph with more than one node (its import cycles), largest first (Tarjan). */
export function importCycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((targets) => [...targets])]);
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => b.length - a.length);
}

/** Value and type edges merged: the cycles a reader sees, though type-only edges never load a module. */
export function withTypeEdges(graph: FolderGraph): Map<string, Set<string>> {
  const merged = new Map<string, Set<string>>();
  for (const map of [graph.value, graph.typeOnly]) for (const [from, targets] of map) for (const to of targets) (merged.get(from) ?? merged.set(from, new Set()).get(from)!).add(to);
  return merged;
}

const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * Every relative import (static, `import type` and dynamic `import('…')`) from a file under one of
 * `fromDirs` into a file under one of `toDirs` (paths relative to `root`, e.g. `services/items`): the
 * imports a layering rule forbids, whether they load at start or on first use.
 */
export function importsBetween(root: string, fromDirs: string[], toDirs: string[]): string[] {
  const under = (file: string, dirs: string[]) => dirs.some((dir) => file === dir || file.startsWith(`${dir}/`));
  const found: string[] = [];
  for (const dir of fromDirs) {
    for (const file of sourceFiles(path.join(root, dir))) {
      const text = readFileSync(file, 'utf8');
      const specifiers = [...text.matchAll(STATIC_IMPORT)].map((match) => match[4]!).concat([...text.matchAll(DYNAMIC_IMPORT)].map((match) => match[1]!));
      for (const specifier of specifiers) {
        if (!specifier.startsWith('.')) continue;
        const target = path.relative(root, path.resolve(path.dirname(file), specifier)).split(path.sep).join('/');
        if (under(target, toDirs)) found.push(`${path.relative(root, file).split(path.sep).join('/')} -> ${target}`);
      }
    }
  }
  return found;
}

/** The server folder this repository's `server/` lies in. */
export const SERVER_ROOT = fileURLToPath(new URL('../server', import.meta.url));

function print(): void {
  const graph = buildFolderGraph(SERVER_ROOT);
  const show = (title: string, cycles: string[][]) => {
    console.log(`${title}: ${cycles.length} cycle(s)`);
    for (const cycle of cycles) console.log(`  ${cycle.length} folders: ${cycle.join(', ')}`);
  };
  show('value imports (import type excluded)', importCycles(graph.value));
  show('value + type imports', importCycles(withTypeEdges(graph)));
  const focus = process.argv[2];
  if (focus) for (const edge of graph.edges) if (edge.from.startsWith(`${focus}/`) || edge.from === focus) console.log(`  ${edge.kind} ${edge.from} -> ${edge.to}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) print();
