import { describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import { findCode, findConfirmationLink, findLinks } from '../src/extract.js';

// Realistic sign-up and login mails, composed as real MIME (quoted-printable, base64,
// HTML-only, multipart) and decoded by mailparser exactly as the SMTP listener does.

interface Mail {
  subject: string;
  text?: string;
  html?: string;
  textEncoding?: 'quoted-printable' | 'base64';
}

async function decode(m: Mail): Promise<{ subject: string; text: string; html?: string }> {
  // nodemailer's stream transport composes the message without sending it.
  const info = await nodemailer
    .createTransport({ streamTransport: true, buffer: true })
    .sendMail({ from: 'Acme <no-reply@acme.test>', to: 'abc@inbox.test', subject: m.subject, text: m.text, html: m.html, textEncoding: m.textEncoding });
  const raw = info.message as Buffer;
  const p = await simpleParser(raw);
  return { subject: p.subject ?? '', text: p.text ?? '', html: typeof p.html === 'string' ? p.html : undefined };
}

const codes: [string, Mail, string | null, string?][] = [
  ['plain text', { subject: 'Verify your email', text: 'Hi,\n\nYour verification code is 482913.\nIt expires in 10 minutes.' }, '482913', 'keyword'],
  ['HTML only, code in bold, grouped by a space', { subject: 'Sign in to Acme', html: '<p>Use this code to sign in:</p><p><strong>739 210</strong></p><p>© 2024 Acme Inc.</p>' }, '739210', 'keyword'],
  ['alphanumeric with a dash', { subject: 'Your code', text: 'Your one-time code: K7P-2QX\nDo not share it.', html: '<p>Your one-time code: <b>K7P-2QX</b></p>' }, 'K7P2QX', 'keyword'],
  ['quoted-printable German', { subject: 'Bestätigen Sie Ihre Adresse', text: 'Hallo,\nIhr Bestätigungscode lautet 552-193. Er ist 15 Minuten gültig.', textEncoding: 'quoted-printable' }, '552193', 'keyword'],
  ['base64 Spanish, split by spaces', { subject: 'Verifica tu cuenta', text: 'Tu código de verificación es 90 12 45', textEncoding: 'base64' }, '901245', 'keyword'],
  ['the code before its word', { subject: 'Acme', text: '381920 is your Acme login code.' }, '381920', 'keyword'],
  ['only in the subject, with a code word', { subject: 'Your code: 112233', text: 'Thanks for signing up!' }, '112233', 'keyword'],
  ['the subject\'s only number', { subject: 'Acme 445566', text: 'Welcome aboard.' }, '445566', 'subject'],
  ['the body\'s only number (a year in a copyright line is not one)', { subject: 'Welcome', text: 'Enter 7788 to continue.\n\n© 2024 Acme' }, '7788', 'only-number'],
  ['a price and a date next to the code', { subject: 'Confirm', text: 'Your code is 4821. Total $1999 on 2024-05-14.' }, '4821', 'keyword'],
  ['Chinese', { subject: '验证', text: '您的验证码是 246810，10分钟内有效。' }, '246810', 'keyword'],
  ['Japanese', { subject: 'ログイン', text: '認証コード：135790' }, '135790', 'keyword'],
  ['a token in a link is not the code', { subject: 'Your code', text: 'Your code is 908172 or open https://x.test/v?code=111111&t=ab12cd' }, '908172', 'keyword'],
  ['no code at all', { subject: 'Welcome to Acme', text: 'Your account is ready. Questions? Write to help@acme.test.' }, null],
  ['"barcode" and "shipping" are not code words', { subject: 'Shipped', text: 'Your barcode label and shipping details are attached. Order 55 items.' }, null],
];

describe('verification codes', () => {
  for (const [name, mail, expected, rule] of codes) {
    it(name, async () => {
      const m = await decode(mail);
      const found = findCode(m.subject, m.text);
      expect(found?.code ?? null, JSON.stringify(m)).toBe(expected);
      if (rule) expect(found?.rule).toBe(rule);
    });
  }
});

describe('confirmation links', () => {
  it('picks the sign-in link over an unsubscribe link that comes first, and decodes entities', async () => {
    const m = await decode({
      subject: 'Your magic link',
      html: '<a href="https://acme.test/unsubscribe?u=1">Unsubscribe</a><p>Click to sign in:</p><a href="https://acme.test/auth/magic?token=abc&amp;u=42">Sign in to Acme</a><img src="https://t.acme.test/pixel.gif">',
    });
    const link = findConfirmationLink(m.html, m.text);
    expect(link).toMatchObject({ url: 'https://acme.test/auth/magic?token=abc&u=42', text: 'Sign in to Acme', rule: 'keyword' });
  });

  it('finds a link written out in a plain-text mail', async () => {
    const m = await decode({ subject: 'Confirm your email', text: 'Welcome!\nConfirm your address: https://app.test/confirm?token=abc123&u=1.\nThanks' });
    expect(findConfirmationLink(m.html, m.text)).toMatchObject({ url: 'https://app.test/confirm?token=abc123&u=1', rule: 'keyword' });
    expect(findCode(m.subject, m.text)).toBeNull();
  });

  it('falls back to the first ordinary link; none when there is none', async () => {
    const m = await decode({ subject: 'Hello', html: '<p>See <a href="https://acme.test/start">your dashboard</a> and <a href="https://acme.test/privacy">privacy</a></p>' });
    expect(findConfirmationLink(m.html, m.text)).toMatchObject({ url: 'https://acme.test/start', rule: 'first-link' });
    expect(findLinks(m.html, m.text).map((l) => l.url)).toEqual(['https://acme.test/start', 'https://acme.test/privacy']);
    const none = await decode({ subject: 'Hi', text: 'No links here.' });
    expect(findConfirmationLink(none.html, none.text)).toBeNull();
  });
});
