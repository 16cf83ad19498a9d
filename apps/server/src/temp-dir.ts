import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

// The server process's own temp dir: STATE_DIR/tmp/<pid>. Playwright (browser profiles,
// artifacts, traces), Chromium and our own code all create temp files under os.tmpdir(),
// which reads TMPDIR; pointing TMPDIR here at startup means a server killed with SIGKILL
// (no cleanup code runs) leaves its temp files in one known place, and the next server
// on the same STATE_DIR removes them. Another live server's dir is left alone.

export interface ProcessTempDir {
  dir: string;
  /** Dirs of dead processes removed at startup. */
  removed: string[];
  /** Remove this process's dir (clean shutdown); never throws. */
  remove(): void;
}

export function claimProcessTempDir(stateDir: string, pid = process.pid): ProcessTempDir {
  const root = path.resolve(stateDir, 'tmp');
  mkdirSync(root, { recursive: true });
  const removed: string[] = [];
  for (const name of readdirSync(root)) {
    const owner = Number(name);
    // Our own pid's dir is a previous incarnation's (containers reuse pid 1).
    if (!Number.isInteger(owner) || (owner !== pid && isAlive(owner))) continue;
    rmSync(path.join(root, name), { recursive: true, force: true });
    removed.push(name);
  }
  const dir = path.join(root, String(pid));
  mkdirSync(dir, { recursive: true });
  return {
    dir,
    removed,
    // Never throws: a browser still writing its profile as it exits can make a pass fail
    // (ENOTEMPTY); what is left then goes with the next start's sweep.
    remove: () => {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
      } catch { /* the next server on this STATE_DIR removes it */ }
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, but someone else's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
