import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, loadConfig } from '@ariadne/server';
import { requestLineWriter } from '../apps/server/src/plugins/request-log.js';

// The request completion line is formatted by hand (plugins/request-log.ts) for speed. It
// must stay the line the service logger writes for the same fields: same keys and values,
// same bindings, the same text redaction of every string. Pure formatting: no server.

function capture() {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, cb) { lines.push(chunk.toString()); cb(); } });
  return { lines, stream };
}

const config = loadConfig({ NODE_ID: 'node-a', LOG_LEVEL: 'info' });

function both(fields: Parameters<NonNullable<ReturnType<typeof requestLineWriter>>>[0]) {
  const out = capture();
  const logger = createLogger(config, out.stream as never);
  const write = requestLineWriter(logger);
  expect(write).not.toBeNull();
  const { reqId, ...rest } = fields;
  logger.info({ reqId, ...rest }, 'request');
  write!(fields);
  return out.lines;
}

describe('request log line', () => {
  it('is the line the service logger writes for the same fields', () => {
    const [viaLogger, byHand] = both({ reqId: 'c0ffee-1', method: 'GET', url: '/v1/sessions/s1/roles/default/snapshot?maxTokens=2000', status: 200, ms: 1.3, tenant: 'team-a' });
    expect(byHand.endsWith('\n')).toBe(true);
    const a = JSON.parse(viaLogger);
    const b = JSON.parse(byHand);
    expect(Math.abs(a.time - b.time)).toBeLessThan(1000);
    delete a.time;
    delete b.time;
    expect(b).toEqual(a);
    expect(Object.keys(b)).toEqual(Object.keys(a));
    expect(b).toMatchObject({ level: 30, node: 'node-a', msg: 'request', status: 200, ms: 1.3, tenant: 'team-a' });
  });

  it('leaves out an absent tenant and escapes what needs escaping', () => {
    const [viaLogger, byHand] = both({ reqId: 'quote"back\\slash\nnewline\u2028', method: 'GET', url: '/healthz', status: 404, ms: 0 });
    const a = JSON.parse(viaLogger);
    const b = JSON.parse(byHand);
    delete a.time;
    delete b.time;
    expect(b).toEqual(a);
    expect('tenant' in b).toBe(false);
    expect(b.reqId).toBe('quote"back\\slash\nnewline\u2028');
  });

  it('redacts URL credentials in every string, as the logger does (a request id is the client\'s own header)', () => {
    const secret = 'USERINFO-S3CRET';
    const [viaLogger, byHand] = both({ reqId: `https://bob:${secret}@evil.test/?code=QUERY-S3CRET`, method: 'GET', url: '/v1/sessions', status: 200, ms: 2, tenant: 'local' });
    expect(viaLogger).not.toContain(secret);
    expect(byHand).not.toContain(secret);
    expect(byHand).not.toContain('QUERY-S3CRET');
    const a = JSON.parse(viaLogger);
    const b = JSON.parse(byHand);
    expect(b.reqId).toBe(a.reqId);
  });

  it('writes nothing below the logger level, and gives way to the logger where it cannot copy its format', () => {
    const out = capture();
    const quiet = createLogger(loadConfig({ LOG_LEVEL: 'warn' }), out.stream as never);
    requestLineWriter(quiet)!({ reqId: 'r', method: 'GET', url: '/', status: 200, ms: 1 });
    expect(out.lines).toEqual([]);
    const withMixin = pino({ mixin: () => ({ extra: 1 }) }, capture().stream);
    expect(requestLineWriter(withMixin)).toBeNull();
    const multi = pino({}, pino.multistream([{ stream: capture().stream }]));
    expect(requestLineWriter(multi)).toBeNull();
  });
});
