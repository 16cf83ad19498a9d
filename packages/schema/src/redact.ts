// What never reaches a log line or an error body: API keys (by parameter name, by value
// when configured, by shape in query strings; also percent-encoded), URL user-info and
// query values, and values typed into a page (Playwright's call log writes
// `fill("<value>")`, `elementHandle.type("<text>")`).

export const REDACTED = '[redacted]';

/**
 * Query parameter names whose value is a credential, compared after decoding and with
 * `-`, `_` and `.` dropped: api-key, apiToken, access-token, client_secret, x-api-key,
 * bearer, sig... (`maxTokens` is not one: it ends in "tokens").
 */
const SECRET_PARAM = /^(sig|signature|auth|authorization|bearer|jwt|session|sessionid|credentials?|[a-z0-9]*(token|key|secret|password|passwd|pwd|passphrase))$/i;

function isSecretParam(name: string): boolean {
  return SECRET_PARAM.test(name.trim().replace(/[-_.\s]/g, ''));
}

// Values known to be credentials (the configured API keys, model keys): redacted by value
// wherever they appear in a log line, whatever parameter, header or text carries them.
// One set per process: the request line's fast path and every logger share it.
const known = new Set<string>();
let knownPattern: RegExp | null = null;
/** Shorter values are not registered: they would redact ordinary words. */
export const MIN_SECRET_VALUE_LENGTH = 8;

/** Registers credential values to redact by value in every log line of this process. */
export function addSecretValues(values: Iterable<string | undefined | null>): void {
  let added = false;
  for (const v of values) {
    if (typeof v !== 'string' || v.length < MIN_SECRET_VALUE_LENGTH) continue;
    for (const form of new Set([v, encodeURIComponent(v)])) {
      if (!known.has(form)) { known.add(form); added = true; }
    }
  }
  if (!added) return;
  // Longest first, so a value containing another is replaced whole.
  const alternatives = [...known].sort((a, b) => b.length - a.length).map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  knownPattern = new RegExp(alternatives.join('|'), 'g');
}

function redactKnown(s: string): string {
  return knownPattern && s.length >= MIN_SECRET_VALUE_LENGTH ? s.replace(knownPattern, REDACTED) : s;
}

/** Our own ids (UUIDs) are not credentials even though they are long and mixed. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A value shaped like a key or token: 16 or more characters of the alphabets keys are
 * written in (hex, base64, base64url, `sk-...`, `ghp_...`, JWTs), with letters and digits.
 * Query values of this service's own API (numbers, refs, formats, tab ids) never are.
 */
export function looksLikeToken(v: string): boolean {
  return v.length >= 16 && v.length <= 4096 && /^[A-Za-z0-9._~+/=-]+$/.test(v) && /\d/.test(v) && /[A-Za-z]/.test(v) && !UUID.test(v);
}

/**
 * A request URL of this service as it may be logged: the path as sent, the query
 * re-encoded from its decoded form, with credentials redacted: values of parameters named
 * like credentials, values shaped like keys or tokens under any name (`?q=<key>`), names
 * shaped like them (a bare `?<key>`), and configured keys anywhere. Parsing the query the
 * same way the auth hook does means `?%74oken=KEY` is caught like `?token=KEY`.
 */
export function redactRequestUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return redactKnown(url);
  const params = new URLSearchParams(url.slice(q + 1));
  const out: string[] = [];
  const credential = (v: string) => looksLikeToken(v) || redactKnown(v) !== v;
  for (const [name, value] of params) {
    const nameIsOne = credential(name);
    const shownName = nameIsOne ? REDACTED : encodeURIComponent(name);
    if (value === '') {
      out.push(shownName);
      continue;
    }
    out.push(`${shownName}=${nameIsOne || isSecretParam(name) || credential(value) ? REDACTED : encodeURIComponent(value)}`);
  }
  return `${redactKnown(url.slice(0, q))}?${out.join('&')}`;
}

// An absolute URL inside free text (error messages, call logs): scheme://..., up to a
// space, quote or angle bracket.
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]{1,20}:\/\/)([^\s"'<>`]*)/gi;

/** A URL a page or tenant supplied, as it may be logged: no user-info, no query values, no fragment. */
export function redactForeignUrl(url: string): string {
  return url.replace(URL_IN_TEXT, (_m, scheme: string, rest: string) => scheme + redactUrlRest(rest));
}

function redactUrlRest(rest: string): string {
  // user-info: everything before an @ that comes before the first / ? #
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const at = authority.lastIndexOf('@');
  let out = at >= 0 ? `${REDACTED}@${rest.slice(at + 1)}` : rest;
  const hash = out.indexOf('#');
  if (hash >= 0) out = out.slice(0, hash);
  const q = out.indexOf('?');
  if (q < 0) return out;
  const query = out.slice(q + 1).split('&').map((pair) => {
    if (!pair) return pair;
    const eq = pair.indexOf('=');
    return eq < 0 ? REDACTED : `${pair.slice(0, eq)}=${REDACTED}`;
  });
  return `${out.slice(0, q)}?${query.join('&')}`;
}

// A call-log line that carries a typed value, e.g. `  - fill("hunter2")`.
const TYPED = /\b(fill|type|press|pressSequentially|insertText|setInputFiles)\(\s*(["'`])/;

/** Free text (an error message, a call log): URLs redacted, typed values removed. */
export function redactText(text: string): string {
  let s = redactKnown(text).replace(URL_IN_TEXT, (_m, scheme: string, rest: string) => scheme + redactUrlRest(rest));
  if (!TYPED.test(s)) return s;
  // A typed value may span lines; drop everything up to the next call-log entry ("  - ...").
  const lines = s.split('\n');
  const out: string[] = [];
  let skipping = false;
  for (const line of lines) {
    const m = TYPED.exec(line);
    if (m) {
      out.push(`${line.slice(0, m.index)}${m[1]}(${REDACTED})`);
      skipping = true;
      continue;
    }
    if (skipping && !/^\s*-\s/.test(line) && !/^\s*(Call log|=+)/i.test(line)) continue;
    skipping = false;
    out.push(line);
  }
  s = out.join('\n');
  return s;
}

/** Also hide exact values the caller typed (a fill value appearing anywhere). */
export function redactValues(text: string, values: string[]): string {
  let s = text;
  for (const v of values) if (v.length >= 3) s = s.split(v).join(REDACTED);
  return s;
}

/** Deep copy of plain data with every string passed through `fn` (bounded depth and size). */
export function mapStrings(value: unknown, fn: (s: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return fn(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.slice(0, 1000).map((v) => mapStrings(v, fn, depth + 1));
  if (value instanceof Error) {
    const e = value as Error & { code?: unknown };
    return { type: e.name, message: fn(e.message ?? ''), ...(e.stack ? { stack: fn(e.stack) } : {}), ...(e.code !== undefined ? { code: e.code } : {}) };
  }
  const proto = Object.getPrototypeOf(value);
  // Class instances (a Fastify request, a socket) are left to their serializers.
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = mapStrings(v, fn, depth + 1);
  return out;
}

/** Strings of an op's input that were typed into the page (values to scrub from errors). */
export function typedValuesOf(input: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown, key: string, depth: number) => {
    if (depth > 4 || found.length > 50) return;
    if (typeof v === 'string') {
      if (/^(value|values|text|password|secret)$/i.test(key)) found.push(v);
      return;
    }
    if (Array.isArray(v)) for (const x of v) walk(x, key, depth + 1);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k, depth + 1);
  };
  walk(input, '', 0);
  return found;
}

/**
 * Keys whose values never reach a log line, wherever a caller puts them: API keys and
 * tokens, passwords and secrets, Authorization and Cookie headers (top level, one level
 * down, and in a logged request's or response's headers).
 */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]',
  'headers.authorization', 'headers.cookie', 'headers["set-cookie"]', '*.headers.authorization', '*.headers.cookie',
  ...['apiKey', 'api_key', 'token', 'accessToken', 'access_token', 'authorization', 'cookie', 'cookies', 'password', 'secret', 'secrets']
    .flatMap((k) => [k, `*.${k}`]),
];

/**
 * The redacting part of a pino logger's options, for every process of the service (the
 * server and the standalone worker): the paths above censored, a logged request's URL
 * with credential query parameters redacted (also percent-encoded: `?%74oken=`), and every
 * string of a line (the message included) with URL user-info, query values and typed values
 * removed.
 */
export function logRedaction(opts: { secretValues?: Iterable<string | undefined | null> } = {}) {
  if (opts.secretValues) addSecretValues(opts.secretValues);
  return {
    redact: { paths: LOG_REDACT_PATHS, censor: REDACTED },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ id: req.id, method: req.method, url: redactRequestUrl(req.url) }),
      msg: (msg: unknown) => (typeof msg === 'string' ? redactText(msg) : msg),
    },
    formatters: { log: (obj: Record<string, unknown>) => mapStrings(obj, redactText) as Record<string, unknown> },
  };
}
