// Who holds a lease. A worker that died (SIGKILL, crash, power cut) cannot release its
// leases; waiting for them to expire would stall the restarted app. On the same host a
// dead process is recognisable at once: its pid is gone, or it is our own pid but not an
// owner this process started. PID reuse by an unrelated process only makes us wait for
// the lease expiry: safe, never a double run.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { QueueOwner } from '../store/jobs-repo.ts';

const ownersOfThisProcess = new Set<string>();

export function newOwner(startedAt: number): QueueOwner {
  const owner = {
    ownerId: `${hostname()}:${process.pid}:${randomUUID()}`,
    host: hostname(),
    pid: process.pid,
    startedAt,
  };
  ownersOfThisProcess.add(owner.ownerId);
  return owner;
}

export function retireOwner(ownerId: string): void {
  ownersOfThisProcess.delete(ownerId);
}

/** false only when the owner is certainly gone; other hosts are assumed alive (leases expire). */
export function isOwnerAlive(owner: QueueOwner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return ownersOfThisProcess.has(owner.ownerId);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the pid exists but belongs to someone else (it is alive, just not ours).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
