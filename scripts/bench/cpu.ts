import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * Where the machine's CPU went while the server was measured (Linux /proc), with one process and with two: the
 * server (with two, the cluster's primary and its workers), PostgreSQL's processes, this process (autocannon) and
 * everything else, in cores, and per request in µs of CPU. With all of it busy for N cores, N / busy is the most any
 * number of server processes could add here, whatever the server does: the ceiling of the ratio. Per request it
 * reads: one process's rate times the CPU every part spends on a request (server, PostgreSQL, autocannon, kernel)
 * cannot pass N cores; a server that needs less CPU per request raises the one process's rate and so lowers the
 * ceiling, while PostgreSQL's and autocannon's part per request stay.
 * Processes are counted by pid, each from its own first sample: a PostgreSQL backend that exits meanwhile (a pool
 * closing an idle connection) takes out only what it ran during the window, not all it ever ran.
 */
export interface CpuSample { at: number; total: number; idle: number; server: Map<number, number>; postgres: Map<number, number>; self: number }
export interface CpuShare {
  operation: string;
  processes: number;
  requestsPerSecond: number;
  busyCores: number;
  serverCores: number;
  postgresCores: number;
  benchCores: number;
  otherCores: number;
  ceiling: number;
}
const TICK = 100; // USER_HZ: /proc counts CPU time in 1/100 s on Linux
/** after the command name: state, ppid, … (utime and stime are the 12th and 13th) */
const statFields = (statLine: string) => statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
const jiffiesOf = (f: string[]) => Number(f[11]) + Number(f[12]);
export function cpuNow(serverPid: number): CpuSample | undefined {
  if (!existsSync('/proc/stat')) return undefined;
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const postgres = new Map<number, number>();
    const server = new Map<number, number>();
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const line = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = statFields(line);
        if (line.includes('(postgres)')) postgres.set(Number(pid), jiffiesOf(f));
        // the server, and its workers when it is a cluster's primary
        else if (Number(pid) === serverPid || Number(f[1]) === serverPid) server.set(Number(pid), jiffiesOf(f));
      } catch {
        // gone meanwhile
      }
    }
    return {
      at: performance.now(),
      total: cpu.reduce((a, b) => a + b, 0),
      idle: cpu[3] + (cpu[4] ?? 0),
      server,
      postgres,
      self: jiffiesOf(statFields(readFileSync('/proc/self/stat', 'utf8'))),
    };
  } catch {
    return undefined;
  }
}
export function cpuBetween(a: CpuSample, b: CpuSample): Omit<CpuShare, 'operation' | 'processes' | 'requestsPerSecond'> {
  const seconds = (b.at - a.at) / 1000;
  const cores = (j: number) => Number((j / TICK / seconds).toFixed(2));
  const busyCores = cores(b.total - a.total - (b.idle - a.idle));
  // per pid: what each process ran since the first sample (all of it for one started meanwhile)
  const ran = (before: Map<number, number>, after: Map<number, number>) => [...after].reduce((sum, [pid, j]) => sum + j - (before.get(pid) ?? 0), 0);
  const serverCores = cores(ran(a.server, b.server));
  const postgresCores = cores(ran(a.postgres, b.postgres));
  const benchCores = cores(b.self - a.self);
  const otherCores = Number(Math.max(0, busyCores - serverCores - postgresCores - benchCores).toFixed(2));
  return { busyCores, serverCores, postgresCores, benchCores, otherCores, ceiling: Number(Math.min(2, availableParallelism() / Math.max(busyCores, 0.01)).toFixed(2)) };
}
/** µs of CPU per request of `cores` busy at `requestsPerSecond` (the run's mean; the CPU was read over the whole run) */
export const perRequest = (cores: number, requestsPerSecond: number) => Math.round((cores * 1e6) / Math.max(requestsPerSecond, 1));
