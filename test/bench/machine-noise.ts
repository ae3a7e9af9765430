/** Machine noise: how much CPU other processes took while a phase ran (Linux /proc; else unknown). */
import { readdirSync, readFileSync } from 'node:fs';

export interface CpuSnapshot {
  total: number;
  busy: number;
  ours: number;
}

/** Jiffies: all CPUs' total and busy time, and the time used by this process and its live descendants. */
export function cpuSnapshot(): CpuSnapshot | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    const busy = total - fields[3]! - (fields[4] ?? 0);
    const procs = new Map<number, { ppid: number; time: number }>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // After the command: state ppid ... utime(14) stime(15) cutime(16) cstime(17), 1-based over the whole line.
        procs.set(Number(name), { ppid: Number(rest[1]), time: Number(rest[11]) + Number(rest[12]) + Number(rest[13]) + Number(rest[14]) });
      } catch {
        // The process ended meanwhile.
      }
    }
    const ours = new Set([process.pid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, p] of procs) {
        if (!ours.has(pid) && ours.has(p.ppid)) {
          ours.add(pid);
          grew = true;
        }
      }
    }
    let time = 0;
    for (const pid of ours) time += procs.get(pid)?.time ?? 0;
    return { total, busy, ours: time };
  } catch {
    return undefined;
  }
}

/** Share of the whole machine's CPU (all cores) that processes outside this benchmark used, in percent. */
export function foreignShare(a: CpuSnapshot | undefined, b: CpuSnapshot | undefined): number | undefined {
  if (!a || !b || b.total <= a.total) return undefined;
  const other = b.busy - a.busy - (b.ours - a.ours);
  return Math.max(0, Math.round((1000 * other) / (b.total - a.total)) / 10);
}
