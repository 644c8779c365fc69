// CPU time of a process, from /proc (Linux): how the benches measure a process's work.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks a second: the unit of the CPU times in /proc. */
export const CLK_TCK =
  Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/**
 * CPU clock ticks (user and system) of a process so far, or with `children` those of its
 * children that have exited and been waited for. Throws where there is no /proc.
 */
export function cpuTicks(pid: number | 'self', children = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name: state is the 3rd; utime, stime, cutime, cstime 14th-17th.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return children ? Number(f[13]) + Number(f[14]) : Number(f[11]) + Number(f[12]);
}
