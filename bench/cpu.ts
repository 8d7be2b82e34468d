import { readdirSync, readFileSync } from 'node:fs';

/**
 * Where CPU time goes during a scenario, on Linux: the Tessera process, the PostgreSQL processes working
 * for it (the benchmark database's backends plus the WAL writer, checkpointer and background writer), and
 * this process (the load generator), read from /proc; the rest of the machine's busy time is "other"
 * (kernel interrupts, other tenants: a test suite running next to the benchmark shows up there).
 * Elsewhere every figure is null.
 */
export interface CpuSnapshot {
  at: number;
  server: number | null;
  postgres: Map<number, number> | null;
  self: number;
  /** Machine-wide busy and total jiffies, from /proc/stat. */
  machine: { busy: number; total: number; kernel: number } | null;
}

export interface CpuUsage {
  /** CPU milliseconds per request. */
  serverMs: number | null;
  postgresMs: number | null;
  loadgenMs: number;
  /** Share of the machine's CPU that was busy, 0..100. */
  busyPercent: number | null;
  /** Machine CPU milliseconds per request, all processes and the kernel. */
  machineMs: number | null;
  /** machineMs minus the three above: interrupts and anything else running on the machine. */
  otherMs: number | null;
  /** Of which kernel interrupt and softirq work (loopback TCP is processed there), ms per request. */
  interruptMs: number | null;
}

const TICK_MS = 10; // CLK_TCK is 100 on Linux

function ticks(pid: number | string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return null;
  }
}

/** CPU ticks of the given PostgreSQL pids, or of every `postgres` process when none are given. */
function postgresTicks(pids: readonly number[] | null): Map<number, number> | null {
  try {
    const result = new Map<number, number>();
    const candidates = pids ?? readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number);
    for (const pid of candidates) {
      if (!pids) {
        try {
          if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
        } catch {
          continue;
        }
      }
      const value = ticks(pid);
      if (value !== null) result.set(pid, value);
    }
    return result;
  } catch {
    return null;
  }
}

function machineTicks(): { busy: number; total: number; kernel: number } | null {
  try {
    const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const numbers = values.map(Number);
    const total = numbers.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = numbers[3]! + numbers[4]!;
    // user nice system idle iowait irq softirq steal
    return { busy: total - idle, total, kernel: numbers[5]! + numbers[6]! };
  } catch {
    return null;
  }
}

/** `postgresPids`: the PostgreSQL processes to count (null: every `postgres` process on the machine). */
/** CPU ticks of the server and of its cluster workers (`tessera start --workers N`; workers do not outlive a scenario). */
function withWorkers(pid: number): number | null {
  const own = ticks(pid);
  if (own === null) return null;
  let sum = own;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) sum += ticks(entry) ?? 0;
    } catch {
      // exited meanwhile
    }
  }
  return sum;
}

export function snapshot(serverPid: number | undefined, postgresPids: readonly number[] | null): CpuSnapshot {
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    server: serverPid === undefined ? null : withWorkers(serverPid),
    postgres: postgresTicks(postgresPids),
    self: (usage.user + usage.system) / 1000,
    machine: machineTicks(),
  };
}

/** CPU per request between two snapshots. */
export function usageBetween(before: CpuSnapshot, after: CpuSnapshot, requests: number): CpuUsage {
  const per = (ms: number) => Math.round((ms / Math.max(1, requests)) * 1000) / 1000;
  let postgres: number | null = null;
  if (before.postgres && after.postgres) {
    postgres = 0;
    for (const [pid, value] of after.postgres) postgres += value - (before.postgres.get(pid) ?? 0);
  }
  const serverMs = before.server !== null && after.server !== null ? per((after.server - before.server) * TICK_MS) : null;
  const postgresMs = postgres === null ? null : per(postgres * TICK_MS);
  const loadgenMs = per(after.self - before.self);
  const machineMs = before.machine && after.machine ? per((after.machine.busy - before.machine.busy) * TICK_MS) : null;
  return {
    serverMs,
    postgresMs,
    loadgenMs,
    otherMs: machineMs === null || serverMs === null || postgresMs === null ? null : Math.round((machineMs - serverMs - postgresMs - loadgenMs) * 1000) / 1000,
    busyPercent:
      before.machine && after.machine ? Math.round(((after.machine.busy - before.machine.busy) / Math.max(1, after.machine.total - before.machine.total)) * 1000) / 10 : null,
    machineMs,
    interruptMs: before.machine && after.machine ? per((after.machine.kernel - before.machine.kernel) * TICK_MS) : null,
  };
}
