import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { startTestService, type Api, type TestService } from './helpers/service.js';

// The built-in inbox over real SMTP: mail sent with nodemailer to the service's own
// listener, read back over REST by the tenant that created the inbox.

const KEY_A = 'key-inbox-aaaaaaaaaaaa';
const KEY_B = 'key-inbox-bbbbbbbbbbbb';
let svc: TestService;
let a: Api;
let b: Api;

beforeAll(async () => {
  svc = await startTestService({
    API_KEYS: `${KEY_A}:tenant-a,${KEY_B}:tenant-b`,
    SMTP_PORT: '0',
    INBOX_DOMAIN: 'inbox.example.test',
    INBOX_MAX_MESSAGES: '3',
    INBOX_MAX_MESSAGE_BYTES: '20000',
  });
  a = svc.api.withToken(KEY_A);
  b = svc.api.withToken(KEY_B);
});
afterAll(async () => svc?.stop());

function send(mail: { to: string; subject: string; text?: string; html?: string; from?: string }) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: svc.service.smtpPort!, secure: false, ignoreTLS: true, connectionTimeout: 5000 });
  return transport.sendMail({ from: mail.from ?? 'Acme <no-reply@acme.test>', ...mail }).finally(() => transport.close());
}

async function newInbox(api: Api, body: unknown = {}) {
  const res = await api.post('/v1/inboxes', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; address: string };
}

describe('inboxes', () => {
  it('receive mail for addresses they created, with the code and the link found', async () => {
    const inbox = await newInbox(a);
    expect(inbox.address).toMatch(/^[a-z2-7]{16}@inbox\.example\.test$/);
    // Waiting for mail answers as soon as it arrives.
    const waiting = a.get(`/v1/inboxes/${inbox.id}/messages?waitSeconds=20`);
    await new Promise((r) => setTimeout(r, 300));
    await send({
      to: inbox.address.toUpperCase(),
      subject: 'Confirm your Acme account',
      html: '<p>Your verification code is <b>604 218</b>.</p><p><a href="https://acme.test/unsubscribe">Unsubscribe</a> <a href="https://acme.test/confirm?t=xyz&amp;u=7">Confirm my email</a></p>',
    });
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.waited).toBe(true);
    expect(res.body.messages).toHaveLength(1);
    const m = res.body.messages[0];
    expect(m).toMatchObject({ from: 'no-reply@acme.test', subject: 'Confirm your Acme account', fromHtml: true });
    expect(m.code).toMatchObject({ code: '604218', rule: 'keyword' });
    expect(m.link).toMatchObject({ url: 'https://acme.test/confirm?t=xyz&u=7', rule: 'keyword' });
    expect(m.text).toContain('Your verification code is 604 218');
    expect((await a.get(`/v1/inboxes/${inbox.id}`)).body.messages).toBe(1);
    // Filters and paging: nothing new after the first message.
    const none = await a.get(`/v1/inboxes/${inbox.id}/messages?after=1&waitSeconds=1`);
    expect(none.body.messages).toEqual([]);
  });

  it('refuse unknown recipients and other domains at RCPT: never a relay', async () => {
    const inbox = await newInbox(a);
    for (const to of ['nobody0000000000@inbox.example.test', `${inbox.id}@elsewhere.test`, 'victim@gmail.com']) {
      const err = await send({ to, subject: 'hi', text: 'hello' }).then(() => null, (e) => e);
      expect(err, to).not.toBeNull();
      expect(err.responseCode, to).toBe(550);
    }
    expect((await a.get(`/v1/inboxes/${inbox.id}/messages`)).body.messages).toEqual([]);
  });

  it('refuse oversized mail and mail past the per-inbox cap (552), keeping what came before', async () => {
    const inbox = await newInbox(a);
    const big = await send({ to: inbox.address, subject: 'big', text: 'x'.repeat(60_000) }).then(() => null, (e) => e);
    expect(big?.responseCode).toBe(552);
    for (let i = 1; i <= 3; i++) await send({ to: inbox.address, subject: `n${i}`, text: `code ${1000 + i}` });
    const over = await send({ to: inbox.address, subject: 'n4', text: 'one too many' }).then(() => null, (e) => e);
    expect(over?.responseCode).toBe(552);
    const res = await a.get(`/v1/inboxes/${inbox.id}/messages`);
    expect(res.body.messages.map((m: { subject: string }) => m.subject)).toEqual(['n1', 'n2', 'n3']);
    expect((await a.get(`/v1/inboxes/${inbox.id}/messages?subject=N2`)).body.messages).toHaveLength(1);
  });

  it("are the creating tenant's only: another tenant gets 404 everywhere", async () => {
    const inbox = await newInbox(a);
    for (const [method, path] of [['GET', `/v1/inboxes/${inbox.id}`], ['GET', `/v1/inboxes/${inbox.id}/messages`], ['DELETE', `/v1/inboxes/${inbox.id}`]] as const) {
      const res = await b.request(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('inbox_not_found');
    }
    expect((await b.get('/v1/inboxes')).body.inboxes.map((i: { id: string }) => i.id)).not.toContain(inbox.id);
    expect((await a.get('/v1/inboxes')).body.inboxes.map((i: { id: string }) => i.id)).toContain(inbox.id);
    expect((await svc.api.get('/v1/inboxes')).status).toBe(401);
    // The owner deletes it: gone, and its address takes no more mail.
    expect((await a.delete(`/v1/inboxes/${inbox.id}`)).status).toBe(204);
    expect((await a.get(`/v1/inboxes/${inbox.id}`)).status).toBe(404);
    const err = await send({ to: inbox.address, subject: 'late', text: 'x' }).then(() => null, (e) => e);
    expect(err?.responseCode).toBe(550);
  });

  it('expire with their TTL, and then take no mail', async () => {
    const inbox = await newInbox(a, { ttlSeconds: 2 });
    await send({ to: inbox.address, subject: 'before', text: 'code 4455' });
    expect((await a.get(`/v1/inboxes/${inbox.id}/messages`)).body.messages).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 2600));
    expect((await a.get(`/v1/inboxes/${inbox.id}`)).status).toBe(404);
    const err = await send({ to: inbox.address, subject: 'after', text: 'x' }).then(() => null, (e) => e);
    expect(err?.responseCode).toBe(550);
  });

  it('answer bad input with 400 and stay up', async () => {
    expect((await a.post('/v1/inboxes', { ttlSeconds: 1 })).status).toBe(400);
    expect((await a.post('/v1/inboxes', { nope: true })).body.error.code).toBe('invalid_request');
    expect((await a.get('/v1/inboxes/not-an-id/messages?waitSeconds=999')).status).toBe(400);
    expect((await a.get('/v1/inboxes/aaaaaaaaaaaaaaaa/messages')).body.error.code).toBe('inbox_not_found');
    expect((await a.get('/healthz')).status).toBe(200);
  });
});

describe('inboxes when SMTP is off', () => {
  it('are refused with 403 inbox_disabled, naming the setting', async () => {
    const off = await startTestService({ POOL_WARM_CONTEXTS: '0' });
    try {
      const res = await off.api.post('/v1/inboxes', {});
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'inbox_disabled', details: { setting: 'SMTP_PORT' } });
    } finally {
      await off.stop();
    }
  });
});
