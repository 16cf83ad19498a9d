import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The server process's own temp dir: STATE_DIR/tmp/<pid>. Playwright (browser profiles,
// artifacts, traces), Chromium and our own code all create temp files under os.tmpdir(),
// which reads TMPDIR; pointing TMPDIR here at startup means a server killed with SIGKILL
// (no cleanup code runs) leaves its temp files in one known place, and the next server
// on the same STATE_DIR removes them. Another live server's dir is left alone.
//
// Chromium binds a Unix socket at <TMPDIR>/org.chromium.Chromium.XXXXXX/SingletonSocket
// and aborts at launch ("Socket path too long") when that path does not fit a socket
// address (107 bytes). Under a deep STATE_DIR no browser would start, so the dir then moves
// to the system temp dir, under a name derived from STATE_DIR: the same STATE_DIR always
// gets the same place, and the sweep below still finds what a killed server left.

/** Longest temp dir whose Chromium singleton socket path still fits sun_path (108 bytes with its NUL). */
export const MAX_TEMP_DIR_LENGTH = 107 - '/org.chromium.Chromium.XXXXXX/SingletonSocket'.length;
/** Digits of the largest pid Linux hands out (pid_max 4194304): the choice of root must not depend on this pid. */
const PID_DIGITS = 7;

export interface ProcessTempDir {
  dir: string;
  /** Dirs of dead processes removed at startup. */
  removed: string[];
  /** Set when STATE_DIR/tmp was too long for Chromium: the root that was not used. */
  tooLong: string | null;
  /** Remove this process's dir (clean shutdown); never throws. */
  remove(): void;
}

/**
 * The root of the per-process temp dirs: STATE_DIR/tmp, or, when a pid's dir under it
 * would be too long for Chromium, ariadne-tmp-<hash of STATE_DIR> in the system temp dir
 * (or /tmp, when that is too deep as well).
 */
export function tempRoot(stateDir: string): { root: string; tooLong: string | null } {
  const preferred = path.resolve(stateDir, 'tmp');
  const fits = (root: string) => root.length + 1 + PID_DIGITS <= MAX_TEMP_DIR_LENGTH;
  if (fits(preferred)) return { root: preferred, tooLong: null };
  const name = `ariadne-tmp-${createHash('sha256').update(preferred).digest('hex').slice(0, 12)}`;
  const system = path.join(tmpdir(), name);
  return { root: fits(system) ? system : path.join('/tmp', name), tooLong: preferred };
}

export function claimProcessTempDir(stateDir: string, pid = process.pid): ProcessTempDir {
  let { root, tooLong } = tempRoot(stateDir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  // A name in a shared temp dir can be taken first by another user (or be a symlink): use
  // it only if it is our own private directory, else a fresh one (no sweep then).
  if (tooLong && !ownPrivateDir(root)) root = mkdtempSync(path.join(path.dirname(root), 'ariadne-'));
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
    tooLong,
    // Never throws: a browser still writing its profile as it exits can make a pass fail
    // (ENOTEMPTY); what is left then goes with the next start's sweep.
    remove: () => {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
        // A root of our own in the system temp dir goes too once no server uses it.
        if (tooLong) rmdirSync(root);
      } catch { /* the next server on this STATE_DIR removes it (ENOTEMPTY: another one runs) */ }
    },
  };
}

function ownPrivateDir(dir: string): boolean {
  const st = lstatSync(dir);
  return st.isDirectory() && (process.getuid === undefined || st.uid === process.getuid()) && (st.mode & 0o022) === 0;
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
