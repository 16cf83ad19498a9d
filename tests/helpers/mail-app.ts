import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { randomBytes, randomInt } from 'node:crypto';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { FIXTURES_DIR } from './fixture-server.js';

// A small app that signs people up by email, as real apps do: a 6-digit code sent over
// SMTP (to the Ariadne service's own SMTP listener) and entered into a split input, and
// a passwordless sign-in by magic link. Plus /api/health for HTTP checks.

export interface MailApp {
  url: string;
  /** Mails the app sent: to, subject (for test assertions). */
  sent: { to: string; subject: string }[];
  close(): Promise<void>;
}

export async function startMailApp(smtpPort: number): Promise<MailApp> {
  const codes = new Map<string, string>();
  const tokens = new Map<string, string>();
  const sent: { to: string; subject: string }[] = [];
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
  let base = '';
  const mail = async (to: string, subject: string, html: string, text?: string) => {
    await transport.sendMail({ from: 'Acme <no-reply@acme.test>', to, subject, html, ...(text ? { text } : {}) });
    sent.push({ to, subject });
  };
  const json = async (req: import('node:http').IncomingMessage) => {
    let body = '';
    for await (const c of req) body += c;
    return JSON.parse(body || '{}') as Record<string, string>;
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const page = (status: number, html: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    };
    try {
      if (url.pathname === '/signup' || url.pathname === '/magic') {
        return page(200, await readFile(path.join(FIXTURES_DIR, 'mail-app', `${url.pathname.slice(1)}.html`), 'utf8'));
      }
      if (url.pathname === '/api/signup' && req.method === 'POST') {
        const { email, variant } = await json(req);
        const code = String(randomInt(100000, 1000000));
        codes.set(email, code);
        if (variant === 'nocode') await mail(email, 'Welcome to Acme', '<p>Thanks for signing up! We will be in touch.</p>');
        else await mail(email, 'Your Acme verification code', `<p>Hi,</p><p>Your verification code is <b>${code.slice(0, 3)} ${code.slice(3)}</b>. It expires in 10 minutes.</p><p>© 2026 Acme Inc.</p>`);
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"ok":true}');
      }
      if (url.pathname === '/api/verify' && req.method === 'POST') {
        const { email, code } = await json(req);
        const ok = codes.get(email) === code;
        res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ ok }));
      }
      if (url.pathname === '/account') {
        const email = url.searchParams.get('email') ?? '';
        return page(200, `<!doctype html><title>Account · Acme</title><main><h1>Welcome to Acme, ${email.replace(/[<>&"]/g, '')}</h1></main>`);
      }
      if (url.pathname === '/api/magic' && req.method === 'POST') {
        const { email } = await json(req);
        const token = randomBytes(12).toString('hex');
        tokens.set(token, email);
        const link = `${base}/magic-login?token=${token}`;
        await mail(email, 'Your Acme sign-in link', `<p><a href="${base}/unsubscribe">Unsubscribe</a></p><p>Click to sign in:</p><p><a href="${link}">Sign in to Acme</a></p>`);
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"ok":true}');
      }
      if (url.pathname === '/magic-login') {
        const email = tokens.get(url.searchParams.get('token') ?? '');
        return page(email ? 200 : 401, `<!doctype html><title>Acme</title><main><h1>${email ? `Signed in as ${email}` : 'This link is not valid'}</h1></main>`);
      }
      if (url.pathname === '/api/health') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"status":"ok"}');
      }
      page(404, '<!doctype html><title>Not found</title><h1>Not found</h1>');
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String((err as Error).message));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    sent,
    close: () => new Promise<void>((r) => { transport.close(); server.close(() => r()); }),
  };
}
