/**
 * Where the CPU time per request went between two profiles of bench:compare --profile
 * (`npm run bench:profile-diff -- <scenario>`, or two .cpuprofile files and their request counts): self time
 * per request of every function (name and file, not line: lines move between commits) or, with --by file,
 * of every source file and package, sorted by head − base. docs/performance.md, "Comparing two commits".
 *
 *   npm run bench:profile-diff -- read_one                     bench/results/profiles/compare-{base,head}-read_one
 *   npm run bench:profile-diff -- a.cpuprofile b.cpuprofile --requests 25960,31170 [--by file] [--top 30] [--cap 1000]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const PROFILES = fileURLToPath(new URL('./results/profiles/', import.meta.url));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A script's place in its tree, the same for both sides: `server/…`, `node_modules/<package>/…`, `node:…`. */
function sourceOf(url: string): string {
  const local = url.replace(/^file:\/\//, '');
  const modules = local.lastIndexOf('/node_modules/');
  if (modules >= 0) return local.slice(modules + 1);
  const match = /\/((?:server|cli|bench|migrations)\/.*)$/.exec(local);
  return match ? match[1]! : local;
}

/**
 * Self time (µs) per key of a profile; `by` picks the key: function and file, or file (packages whole). Each
 * sample counts at most `capUs`: the sampler records wall time since the previous sample, and on a loaded
 * machine a process that waited for a core gets gaps of milliseconds (up to 0.8 s seen) charged to whatever
 * frame it resumed in, which says nothing about that frame.
 */
function selfTimes(profile: CpuProfile, by: 'function' | 'file', capUs: number): Map<string, number> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const times = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const { functionName, url } = nodes.get(id)!.callFrame;
    const source = sourceOf(url);
    const pkg = source.startsWith('node_modules/') ? source.split('/').slice(0, source.startsWith('node_modules/@') ? 3 : 2).join('/') : source;
    const key = by === 'file' ? pkg || functionName || '(anonymous)' : `${functionName || '(anonymous)'} ${source}`.trim();
    times.set(key, (times.get(key) ?? 0) + Math.min(profile.timeDeltas[index] ?? 0, capUs));
  });
  return times;
}

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  // bench/profile.ts samples every 250 µs; a gap beyond 1 ms is time the process was not running.
  options: { requests: { type: 'string' }, by: { type: 'string', default: 'function' }, top: { type: 'string', default: '30' }, cap: { type: 'string', default: '1000' } },
});

function load(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

function main(): void {
  let files: [string, string];
  let requests: [number, number];
  if (positionals.length === 1) {
    const scenario = positionals[0]!;
    files = [path.join(PROFILES, `compare-base-${scenario}.cpuprofile`), path.join(PROFILES, `compare-head-${scenario}.cpuprofile`)];
    const counts = files.map((file) => file.replace(/\.cpuprofile$/, '.requests'));
    if (!counts.every((file) => existsSync(file))) throw new Error(`No request counts next to ${files.join(' and ')}: run bench:compare --profile, or pass the files and --requests.`);
    requests = counts.map((file) => Number(readFileSync(file, 'utf8'))) as [number, number];
  } else if (positionals.length === 2 && args.requests) {
    files = [positionals[0]!, positionals[1]!];
    requests = args.requests.split(',').map(Number) as [number, number];
  } else {
    throw new Error('Usage: npm run bench:profile-diff -- <scenario> | <base.cpuprofile> <head.cpuprofile> --requests <base>,<head> [--by function|file] [--top 30]');
  }
  if (requests.length !== 2 || !requests.every((count) => Number.isFinite(count) && count > 0)) throw new Error('--requests takes two positive counts: base,head.');
  const by = args.by === 'file' ? 'file' : 'function';
  const capUs = Number(args.cap);
  if (!(capUs > 0)) throw new Error('--cap takes the longest gap between samples counted, in µs.');
  const [base, head] = files.map((file) => selfTimes(load(file), by, capUs));
  const total = (times: Map<string, number>, count: number) => [...times.values()].reduce((sum, value) => sum + value, 0) / count;
  const rows = [...new Set([...base!.keys(), ...head!.keys()])]
    .map((key) => ({ key, base: (base!.get(key) ?? 0) / requests[0], head: (head!.get(key) ?? 0) / requests[1] }))
    .sort((a, b) => b.head - b.base - (a.head - a.base));
  const top = Number(args.top);
  const line = (row: { key: string; base: number; head: number }) =>
    `${(row.head - row.base).toFixed(2).padStart(8)} µs  ${row.base.toFixed(2).padStart(7)} → ${row.head.toFixed(2).padStart(7)}  ${row.key}`;
  process.stdout.write(`self time per request, head − base (base ${requests[0]} requests, head ${requests[1]}): all ${total(base!, requests[0]).toFixed(1)} → ${total(head!, requests[1]).toFixed(1)} µs, idle included, gaps between samples counted up to ${capUs} µs\n`);
  process.stdout.write(`${rows.slice(0, top).map(line).join('\n')}\n  …\n${rows.slice(-Math.min(top, 10)).map(line).join('\n')}\n`);
}

main();
