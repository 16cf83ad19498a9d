import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createWorkerLogger } from '@ariadne/worker';
import { createLogger, loadConfig } from '@ariadne/server';

// Issue 10 leftover: the standalone worker (apps/worker) logs with the same redaction as
// the server: keys and tokens, ?token=, Authorization and cookies, URL user-info and
// query values. Both loggers are given the same lines and must keep the same secrets out.

const SECRETS = ['KEY-S3CRET-1', 'TOKEN-S3CRET-2', 'BEARER-S3CRET-3', 'COOKIE-S3CRET-4', 'USERINFO-S3CRET-5', 'QUERY-S3CRET-6', 'NESTED-S3CRET-7', 'PW-S3CRET-8'];

function capture() {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, cb) { lines.push(chunk.toString()); cb(); } });
  return { lines, stream };
}

function logEverything(logger: ReturnType<typeof createWorkerLogger>): void {
  logger.info({ apiKey: SECRETS[0], planner: 'anthropic' }, 'run started');
  logger.info({ req: { id: 'r1', method: 'GET', url: `/v1/sessions/s1/live?%74oken=${SECRETS[1]}` } }, 'request');
  logger.warn({ headers: { authorization: `Bearer ${SECRETS[2]}`, cookie: `sid=${SECRETS[3]}` } }, 'webhook delivery');
  logger.error({ err: new Error(`page.goto: failed at https://bob:${SECRETS[4]}@shop.test/a?code=${SECRETS[5]}`) }, 'case failed');
  logger.info({ job: { token: SECRETS[6], name: 'run' } }, 'job taken');
  logger.info(`login with https://alice:${SECRETS[7]}@shop.test/`);
}

describe('worker logger redaction', () => {
  it('keeps keys, tokens, Authorization, cookies and URL credentials out of its lines, like the server', () => {
    const worker = capture();
    logEverything(createWorkerLogger('info', worker.stream));
    const server = capture();
    logEverything(createLogger(loadConfig({ LOG_LEVEL: 'info', STATE_DIR: '/tmp/ariadne-worker-logger-test' }), server.stream) as never);
    for (const [name, out] of [['worker', worker.lines], ['server', server.lines]] as const) {
      expect(out.length, name).toBe(6);
      const text = out.join('');
      for (const s of SECRETS) expect(text, `${name}: ${s}`).not.toContain(s);
      // Still useful: what happened, where, and that something was hidden.
      expect(text).toContain('[redacted]');
      expect(text).toContain('shop.test/a?code=[redacted]');
      expect(text).toContain('/v1/sessions/s1/live?');
      expect(JSON.parse(out[0]).planner).toBe('anthropic');
    }
    expect(JSON.parse(worker.lines[0]).role).toBe('worker');
  });
});
