import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claimProcessTempDir, MAX_TEMP_DIR_LENGTH, tempRoot } from '../apps/server/src/temp-dir.js';
import { destroyServer, spawnServer } from './helpers/process.js';

// The server's temp dir is its TMPDIR, and Chromium binds its singleton socket under it
// (<TMPDIR>/org.chromium.Chromium.XXXXXX/SingletonSocket). Under a deep STATE_DIR that path
// did not fit a socket address: Chromium aborted at launch ("Socket path too long") and the
// server could not start (seen with bench/cluster-load's state dirs).

const made: string[] = [];
afterAll(() => { for (const d of made) rmSync(d, { recursive: true, force: true }); });

/** A state dir whose STATE_DIR/tmp/<pid> is longer than Chromium allows. */
function deepStateDir(): string {
  const base = mkdtempSync(path.join(tmpdir(), 'ariadne-deep-'));
  made.push(base);
  const dir = path.join(base, 'a-state-dir-nested-deeper-than-chromium-can-use', 'state');
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe('the server temp dir', () => {
  it('stays under STATE_DIR/tmp when it fits, and moves to a place of its own when it does not', () => {
    const shallow = mkdtempSync(path.join(tmpdir(), 's-'));
    made.push(shallow);
    expect(tempRoot(shallow)).toEqual({ root: path.join(shallow, 'tmp'), tooLong: null });

    const deep = deepStateDir();
    const { root, tooLong } = tempRoot(deep);
    expect(tooLong).toBe(path.join(deep, 'tmp'));
    expect(tooLong!.length + '/4194304'.length).toBeGreaterThan(MAX_TEMP_DIR_LENGTH);
    expect(root).toMatch(/\/ariadne-tmp-[0-9a-f]{12}$/);
    expect(root.length + '/4194304'.length).toBeLessThanOrEqual(MAX_TEMP_DIR_LENGTH);
    expect(tempRoot(deep).root).toBe(root); // the same STATE_DIR, the same place

    // A killed server's dir there is swept by the next one; a clean stop removes the root.
    const dead = path.join(root, '4194999'); // above pid_max: no such process
    mkdirSync(path.join(dead, 'left-over'), { recursive: true });
    const temp = claimProcessTempDir(deep, 4194998);
    expect(temp.dir).toBe(path.join(root, '4194998'));
    expect(temp.removed).toEqual(['4194999']);
    expect(existsSync(dead)).toBe(false);
    temp.remove();
    expect(existsSync(root)).toBe(false);
  });

  it('does not use a fallback name somebody else could have made writable', () => {
    const deep = deepStateDir();
    const { root } = tempRoot(deep);
    mkdirSync(root, { recursive: true });
    chmodSync(root, 0o777);
    made.push(root);
    const temp = claimProcessTempDir(deep, 4194998);
    made.push(path.dirname(temp.dir));
    expect(path.dirname(temp.dir)).not.toBe(root);
    expect(path.dirname(temp.dir)).toMatch(/\/ariadne-[A-Za-z0-9]{6}$/);
    temp.remove();
  });

  it('a server on a deep STATE_DIR starts its browser and serves a session', async () => {
    const server = await spawnServer({ stateDir: deepStateDir(), readyTimeoutMs: 30_000 });
    try {
      const created = await server.api.post('/v1/sessions', {});
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      // Its system temp dir is the TMPDIR spawnServer gave it: read the place from its warning.
      const line = server.output().split('\n').find((l) => l.includes('STATE_DIR is too deep for Chromium'));
      expect(line).toBeTruthy();
      const dir = String(JSON.parse(line!).dir);
      const root = path.dirname(dir);
      made.push(root);
      expect(dir).toBe(path.join(server.tmpDir, path.basename(root), String(server.pid)));
      expect(existsSync(dir)).toBe(true);
      expect((await server.api.delete(`/v1/sessions/${created.body.id}`)).status).toBe(204);
      // A clean stop takes its temp dir and the root along.
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
      expect(existsSync(root)).toBe(false);
    } finally {
      await destroyServer(server, { keepStateDir: true });
    }
  });
});
