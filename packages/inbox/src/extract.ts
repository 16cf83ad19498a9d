// Finding the verification code and the confirmation link in a message. Pure functions
// over the decoded message (mailparser has already undone quoted-printable, base64 and
// charsets), so they are unit-tested on a corpus of realistic messages. Every answer
// says which rule found it, so a step that used the wrong code can be explained.

export interface FoundCode {
  code: string;
  /** keyword: near a word such as "code"/"OTP"/"verification"; subject: the subject's only number; only-number: the body's only 4-8 digit number. */
  rule: 'keyword' | 'subject' | 'only-number';
  /** The text around it, for a report. */
  context: string;
}

export interface FoundLink {
  url: string;
  text?: string;
  /** keyword: the URL or its text says verify/confirm/activate/sign in/magic link; first-link: the first link that is not an unsubscribe/privacy/tracking one. */
  rule: 'keyword' | 'first-link';
}

// Words that announce a code, in the languages sign-up mails are most often sent in.
const CODE_WORDS = [
  'verification code', 'security code', 'confirmation code', 'one-time code', 'one time code', 'one-time password',
  'login code', 'sign-in code', 'sign in code', 'access code', 'passcode', 'otp', 'pin', 'code',
  'código', 'codigo', 'code de vérification', 'code de confirmation', 'bestätigungscode', 'verifizierungscode',
  'sicherheitscode', 'codice', 'kod', 'verificatiecode', 'код', '認証コード', '確認コード', '验证码', '인증번호', 'mã xác minh',
];

// Whole words only ("code" is not in "barcode", "pin" not in "shipping"); words of
// scripts written without spaces (Chinese, Japanese, Korean) match anywhere.
const CJK = /[\u3000-\u9fff\uac00-\ud7af]/u;
const WORD_RE = new RegExp(
  [...CODE_WORDS]
    .sort((a, b) => b.length - a.length)
    .map((w) => (CJK.test(w) ? escape(w) : `(?<![\\p{L}])${escape(w)}(?![\\p{L}])`))
    .join('|'),
  'giu',
);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// A code: 4-8 digits, possibly grouped by spaces or dashes ("123 456", "12-34-56"), or
// an alphanumeric code of 4-10 characters with at least one digit and one letter, all one
// case ("K7P2QX", "ab12cd"), possibly grouped ("K7P-2QX").
const DIGITS = /(?<![\w.,/:+-])(\d(?:[ -]?\d){3,7})(?!\w|[.,/:-]\d)/gu;
const ALNUM = /(?<![\w-])((?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{2,5}(?:-?[A-Z0-9]{2,5})|(?=[a-z0-9-]*\d)(?=[a-z0-9-]*[a-z])[a-z0-9]{4,10})(?![\w-])/gu;

function squash(s: string): string {
  return s.replace(/[ -]/g, '');
}

function around(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 40);
  return text.slice(start, Math.min(text.length, index + length + 40)).replace(/\s+/g, ' ').trim();
}

/** Numbers that are rarely codes: years, times, prices, phone numbers are excluded by shape. */
function plausibleDigits(raw: string, text: string, index: number): boolean {
  const digits = squash(raw);
  if (digits.length < 4 || digits.length > 8) return false;
  // A date written with dashes (2024-05-14, 14-05-2024).
  if (/^\d{4}-\d{1,2}-\d{1,2}$|^\d{1,2}-\d{1,2}-\d{4}$/.test(raw)) return false;
  // A year in a date or a copyright line.
  if (/^(19|20)\d\d$/.test(digits) && /(©|copyright|\b\d{1,2}[./]\d{1,2}[./]$|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\.?\s*\d{0,2},?\s*$)/i.test(text.slice(Math.max(0, index - 20), index))) return false;
  // A price or an amount.
  if (/[$€£¥]\s*$/.test(text.slice(Math.max(0, index - 2), index))) return false;
  return true;
}

function digitCandidates(text: string): { code: string; index: number; length: number }[] {
  const out: { code: string; index: number; length: number }[] = [];
  for (const m of text.matchAll(DIGITS)) {
    if (plausibleDigits(m[1], text, m.index!)) out.push({ code: squash(m[1]), index: m.index!, length: m[1].length });
  }
  return out;
}

function alnumCandidates(text: string): { code: string; index: number; length: number }[] {
  const out: { code: string; index: number; length: number }[] = [];
  for (const m of text.matchAll(ALNUM)) out.push({ code: m[1].replace(/-/g, ''), index: m.index!, length: m[1].length });
  return out;
}

/**
 * The verification code of a message, or null. Rules, strongest first: a code right
 * after (or just before) a code word in the subject or the body; the subject's only
 * number; the body's only plausible number.
 */
export function findCode(subject: string, text: string): FoundCode | null {
  for (const source of [subject ?? '', text ?? '']) {
    const found = nearKeyword(source);
    if (found) return found;
  }
  const subjectDigits = digitCandidates(withoutUrls(subject ?? ''));
  if (subjectDigits.length === 1) return { code: subjectDigits[0].code, rule: 'subject', context: (subject ?? '').trim() };
  const bodyDigits = digitCandidates(withoutUrls(text ?? ''));
  const distinct = new Set(bodyDigits.map((c) => c.code));
  if (distinct.size === 1) {
    const c = bodyDigits[0];
    return { code: c.code, rule: 'only-number', context: around(text, c.index, c.length) };
  }
  return null;
}

/** The text with every URL blanked out (same length, so indexes still point into the original). */
function withoutUrls(text: string): string {
  return text.replace(/(https?:\/\/|www\.)[^\s<>"')\]]+/gi, (m) => ' '.repeat(m.length));
}

function nearKeyword(original: string): FoundCode | null {
  if (!original) return null;
  // Tokens inside links (?t=ab12cd) are not codes.
  const text = withoutUrls(original);
  let best: { code: string; distance: number; index: number; length: number } | null = null;
  const words = [...text.matchAll(WORD_RE)];
  if (words.length === 0) return null;
  const candidates = [...digitCandidates(text), ...alnumCandidates(text)];
  for (const w of words) {
    const wEnd = w.index! + w[0].length;
    for (const c of candidates) {
      // After the word (within 80 chars: "Your code is: 123456", "code below:\n\n123456"),
      // or just before it ("123456 is your verification code").
      const after = c.index - wEnd;
      const before = w.index! - (c.index + c.length);
      let distance = Number.POSITIVE_INFINITY;
      if (after >= 0 && after <= 80) distance = after;
      else if (before >= 0 && before <= 30) distance = before + 40;
      if (distance === Number.POSITIVE_INFINITY) continue;
      // Digits are likelier codes than words that happen to mix letters and digits.
      if (!/^\d+$/.test(c.code)) distance += 20;
      if (!best || distance < best.distance) best = { code: c.code, distance, index: c.index, length: c.length };
    }
  }
  return best ? { code: best.code, rule: 'keyword', context: around(original, best.index, best.length) } : null;
}

const CONFIRM_WORDS = /(verif|confirm|activat|magic|sign[\s_-]?in|log[\s_-]?in|login|auth|token|validate|reset|bestätig|confirmer|confirmar|verifica)/i;
const NOISE = /(unsubscribe|opt[\s_-]?out|privacy|preferences|terms|help|support|track|pixel|\.(png|gif|jpe?g)(\?|$)|mailto:)/i;

/** Links of a message in order: from the HTML's anchors when there is HTML, else from the text. */
export function findLinks(html: string | undefined, text: string | undefined): FoundLink[] {
  const out: { url: string; text?: string }[] = [];
  const seen = new Set<string>();
  const add = (url: string, label?: string) => {
    const clean = decodeEntities(url.trim());
    if (!/^https?:\/\//i.test(clean) || seen.has(clean)) return;
    seen.add(clean);
    out.push(label ? { url: clean, text: label } : { url: clean });
  };
  if (html) {
    for (const m of html.matchAll(/<a\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a>/gi)) {
      add(m[1] ?? m[2] ?? m[3] ?? '', stripTags(m[4]).slice(0, 200) || undefined);
    }
  }
  for (const m of (text ?? '').matchAll(/https?:\/\/[^\s<>"')\]]+/gi)) add(m[0].replace(/[.,;:!?]+$/, ''));
  return out.map((l) => ({ ...l, rule: 'first-link' as const }));
}

/** The confirmation link of a message (the one a sign-up or magic-link login wants opened), or null. */
export function findConfirmationLink(html: string | undefined, text: string | undefined): FoundLink | null {
  const links = findLinks(html, text).filter((l) => !NOISE.test(l.url) && !NOISE.test(l.text ?? ''));
  const keyword = links.find((l) => CONFIRM_WORDS.test(l.text ?? '') || CONFIRM_WORDS.test(l.url));
  if (keyword) return { ...keyword, rule: 'keyword' };
  return links[0] ?? null;
}

function stripTags(s: string): string {
  return decodeEntities(s.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
}

function decodeEntities(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&nbsp;/g, ' ');
}
