import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
// @ts-expect-error plain .mjs script without types
import { END_OF_LIFE, enginesRange, nodeSupport } from '../scripts/node-support.mjs';

// The runtime Ariadne ships on: the Docker image's Node line, package.json's engines, what
// the README says about them, and bootstrap's end-of-life warning (docs/development.md).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8');

describe('the Docker image and engines', () => {
  const dockerfile = read('Dockerfile');
  const stages = [...dockerfile.matchAll(/^FROM\s+node:(\d+)-bookworm-slim\b/gm)].map((m) => Number(m[1]));
  const imageMajor = stages[0];

  it('builds and runs on one Node major, pinned in both stages', () => {
    expect(dockerfile.match(/^FROM /gm)?.length, 'every FROM is a node:<major>-bookworm-slim image').toBe(stages.length);
    expect(stages.length).toBe(2);
    expect(new Set(stages).size, `both stages on one major: ${stages.join(', ')}`).toBe(1);
  });

  it('is not older than the Node the README names, and not past its end of life', () => {
    for (const doc of ['README.md', 'docs/docker.md']) {
      const named = /The Docker image runs \*\*Node (\d+)\*\*/.exec(read(doc))?.[1];
      expect(named, `${doc} says "The Docker image runs **Node N**"`).toBeTruthy();
      expect(imageMajor, `Dockerfile's node:${imageMajor} is older than the Node ${named} ${doc} names`).toBeGreaterThanOrEqual(Number(named));
    }
    const eol = END_OF_LIFE[imageMajor];
    expect(eol, `scripts/node-support.mjs knows when Node ${imageMajor} ends`).toBeTruthy();
    expect(new Date().toISOString().slice(0, 10) < eol, `Node ${imageMajor} reached its end of life on ${eol}: move the image to a maintained LTS line`).toBe(true);
    expect(nodeSupport(`${imageMajor}.0.0`, new Date()).refuse).toBeUndefined();
  });

  it('says in engines what scripts/node-support.mjs checks, and allows the suite\'s Node 20', () => {
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.engines.node).toBe(enginesRange());
    expect(JSON.parse(read('package-lock.json')).packages[''].engines.node).toBe(enginesRange());
    expect(nodeSupport('20.19.0', '2026-01-01')).toEqual({});
  });

  it('README names Node 20\'s end of life with its date', () => {
    const text = read('README.md');
    expect(text).toContain(`Node 20 reached its end of life on ${END_OF_LIFE[20]}`);
  });
});

describe('nodeSupport', () => {
  it('refuses versions the dependencies do not accept', () => {
    for (const v of ['18.20.0', '20.18.1', '21.7.3', '22.11.0']) expect(nodeSupport(v, '2026-01-01').refuse, v).toContain('^20.19.0 || >=22.12.0');
    for (const v of ['20.19.0', '22.12.0', '23.0.0', '24.0.0', '31.2.3']) expect(nodeSupport(v, '2026-01-01').refuse, v).toBeUndefined();
  });

  it('warns on a line past its end of life, from that day on', () => {
    expect(nodeSupport('20.20.2', '2026-04-29')).toEqual({});
    expect(nodeSupport('20.20.2', '2026-04-30').warning).toContain('Node 20 reached its end of life on 2026-04-30');
    expect(nodeSupport('v24.3.0', '2026-11-27')).toEqual({});
    expect(nodeSupport('v24.3.0', new Date('2028-05-01')).warning).toContain('2028-04-30');
  });
});

describe('scripts/bootstrap.mjs on a faked Node version', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-fake-node-'));
  /** Runs `bootstrap --check-node` with process.version(s) replaced before it starts. */
  function bootstrapOn(version: string) {
    const preload = path.join(dir, `fake-${version}.mjs`);
    writeFileSync(preload, `Object.defineProperty(process, 'version', { value: 'v${version}' });
Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '${version}' } });\n`);
    const res = spawnSync(process.execPath, ['--import', preload, path.join(ROOT, 'scripts/bootstrap.mjs'), '--check-node'], { encoding: 'utf8' });
    return { status: res.status, stderr: res.stderr };
  }

  it('warns once on an end-of-life Node, naming the date, and goes on', () => {
    const { status, stderr } = bootstrapOn('20.19.5');
    expect(status).toBe(0);
    expect(stderr.match(/end of life/g)?.length, stderr).toBe(1);
    expect(stderr).toContain('WARNING: Node 20 reached its end of life on 2026-04-30');
    expect(stderr).toContain('node v20.19.5: ok');
  });

  it('says nothing of the kind on a maintained line', () => {
    const { status, stderr } = bootstrapOn('24.11.0');
    expect(status).toBe(0);
    expect(stderr).not.toContain('WARNING');
    expect(stderr).toContain('node v24.11.0: ok');
  });

  it('stops on a Node the dependencies refuse', () => {
    const { status, stderr } = bootstrapOn('18.20.4');
    expect(status).toBe(1);
    expect(stderr).toContain('FAILED: Node ^20.19.0 || >=22.12.0 is required');
  });
});

// cookie@2.0.2 declares node >= 22; fastify loads it (through light-my-request) at start,
// and calls it only when inject() is given cookies. Ariadne's /mcp uses inject() without
// cookies; this proves the one call path works on the Node the suite runs on.
describe('cookie@2.0.2 on this Node', () => {
  it('serializes inject() cookies', async () => {
    const app = Fastify();
    app.get('/echo', async (req) => ({ cookie: req.headers.cookie ?? null }));
    try {
      const res = await app.inject({ method: 'GET', url: '/echo', cookies: { a: '1', b: 'x y' } });
      expect(res.json()).toEqual({ cookie: 'a=1; b=x%20y' });
    } finally {
      await app.close();
    }
  });
});
