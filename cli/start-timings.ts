import { readFileSync } from 'node:fs';

/** One phase of `tessera start`: how long it took and the resident memory when it ended. */
export interface StartPhase {
  name: string;
  ms: number;
  /** CPU time this process spent in the phase (user + system): unlike wall time, not inflated by a busy machine. */
  cpuMs: number;
  rssMb: number;
}

const MB = 2 ** 20;

/**
 * Milliseconds since the operating system started this process. `bin/tessera` re-executes itself (execve
 * keeps the process and its start time), so Node's own clock would miss that first launch; /proc has it.
 * Elsewhere, Node's clock (time since this Node started).
 */
export function msSinceProcessStart(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Field 22 (starttime, in clock ticks since boot); the command name before it may hold spaces.
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const uptimeSeconds = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    // USER_HZ is 100 on every Linux build Node supports.
    const ms = uptimeSeconds * 1000 - startTicks * 10;
    if (Number.isFinite(ms) && ms >= 0) return ms;
  } catch {
    // not Linux
  }
  return performance.now();
}

/** Records the phases of a start: each `mark(name)` closes the phase that ran since the previous mark. */
export class StartTimings {
  readonly phases: StartPhase[] = [];
  readonly #startedAt: number;
  #last: number;
  #lastCpu: number;

  constructor() {
    this.#startedAt = performance.now() - msSinceProcessStart();
    this.#last = performance.now();
    this.#lastCpu = cpuMs();
    // What ran before the first phase: Node, bin/tessera's re-execution and loading the modules of start.
    this.phases.push({ name: 'load', ms: this.#last - this.#startedAt, cpuMs: this.#lastCpu, rssMb: rssMb() });
  }

  mark(name: string): void {
    const now = performance.now();
    const cpu = cpuMs();
    this.phases.push({ name, ms: now - this.#last, cpuMs: cpu - this.#lastCpu, rssMb: rssMb() });
    this.#last = now;
    this.#lastCpu = cpu;
  }

  /** Milliseconds from process start until now. */
  sinceProcessStart(): number {
    return performance.now() - this.#startedAt;
  }

  /**
   * RSS in MB after each phase, under the names the "server started" log line has always used (bench/memory.ts
   * and tests/integration/ops/embedded-memory.test.ts read them).
   */
  rssByPhase(): Record<string, number> {
    const rss = Object.fromEntries(this.phases.map((phase) => [phase.name, phase.rssMb]));
    const named: Record<string, number | undefined> = { loaded: rss.load, adminChecked: rss['admin check'], databaseOpened: rss['database connect'], migrated: rss['migrations check'], bootstrapped: rss.bootstrap, listening: rss.listen };
    return Object.fromEntries(Object.entries(named).filter((entry): entry is [string, number] => entry[1] !== undefined));
  }

  /** A table for people: one line per phase, the total from process start, and the memory now. */
  format(): string {
    const width = Math.max(...this.phases.map((phase) => phase.name.length));
    const lines = this.phases.map((phase) => `  ${phase.name.padEnd(width)}  ${phase.ms.toFixed(0).padStart(6)} ms   cpu ${phase.cpuMs.toFixed(0).padStart(5)} ms   rss ${String(phase.rssMb).padStart(4)} MB`);
    const memory = process.memoryUsage();
    lines.push(`  ${'total'.padEnd(width)}  ${this.sinceProcessStart().toFixed(0).padStart(6)} ms   cpu ${cpuMs().toFixed(0).padStart(5)} ms   (since the process started)`);
    lines.push(`  memory: rss ${Math.round(memory.rss / MB)} MB, heap ${Math.round(memory.heapUsed / MB)}/${Math.round(memory.heapTotal / MB)} MB, external ${Math.round(memory.external / MB)} MB, array buffers ${Math.round(memory.arrayBuffers / MB)} MB`);
    return `Start timings (pid ${process.pid}):\n${lines.join('\n')}\n`;
  }
}

/** CPU time of this process so far, in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function rssMb(): number {
  return Math.round(process.memoryUsage.rss() / MB);
}
