import type { Page } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import type { StoredMessage } from '@ariadne/inbox';
import type { PageState } from '@ariadne/page';
import type { AskContext, CaseTools } from './tools.js';
import { enterOneTimeCode } from './one-time-code.js';
import { httpRequest, type HttpAnswer, type HttpRequestSpec } from './http-request.js';
import type { AssertionRecord } from './types.js';

// Steps that reach outside the page (seed 001): the run's inbox and HTTP checks. Both
// planners use these (the rules planner from its wording, model planners as tools), so
// a code is read, entered and checked the same way whoever asked.

/** How long a step waits for an email to arrive. */
export const EMAIL_WAIT_MS = 30_000;
const HTTP_TIMEOUT_MS = 10_000;
const HTTP_MAX_BYTES = 256 * 1024;

function mailOf(tools: CaseTools) {
  if (!tools.mail) throw new AppError('inbox_disabled', 'This step needs an email inbox, but this service receives no mail: the operator sets SMTP_PORT and INBOX_DOMAIN.', { setting: 'SMTP_PORT' });
  return tools.mail;
}

function describeMessage(m: StoredMessage): string {
  return `"${m.subject}" from ${m.from}, received ${m.receivedAt}`;
}

async function noMessage(tools: CaseTools, what: string, waitedMs: number): Promise<AppError> {
  const s = await tools.mail!.summary();
  return new AppError('email_not_received', `No ${what} arrived at ${s.address} within ${Math.round(waitedMs / 1000)} s.`, { address: s.address, inbox: s.messages });
}

/** The field a sign-up form takes the address in: an email input, or a field labelled/placeholdered "email". */
async function emailField(page: Page) {
  const candidates = [
    { code: "page.locator('input[type=email]')", loc: page.locator('input[type=email]') },
    { code: 'page.getByLabel(/e-?mail/i)', loc: page.getByLabel(/e-?mail/i) },
    { code: 'page.getByPlaceholder(/e-?mail/i)', loc: page.getByPlaceholder(/e-?mail/i) },
    { code: "page.getByRole('textbox', { name: /e-?mail/i })", loc: page.getByRole('textbox', { name: /e-?mail/i }) },
  ];
  for (const c of candidates) {
    const visible = c.loc.filter({ visible: true });
    const n = await visible.count().catch(() => 0);
    if (n === 1) return { locator: visible, code: `${c.code}.filter({ visible: true })` };
    if (n > 1) throw new AppError('ambiguous_target', `The page has ${n} email fields; say which one (Type {{EMAIL}} into "...").`, { matchCount: n });
  }
  return null;
}

/** Create the run's inbox (if not yet) and, when asked, type its address into the page's email field. */
export async function useNewEmail(tools: CaseTools, role: string, ask: AskContext, fill: 'required' | 'if-present' | 'no') {
  const mail = tools.mail;
  return tools.record(role, ask, 'create_temp_email', {}, async (state: PageState | null, step) => {
    const address = await mailOf(tools).address();
    step.params = { value: address };
    if (fill === 'no' || !state) return { address, filled: false };
    const field = await emailField(state.page);
    if (!field) {
      if (fill === 'required') throw new AppError('target_not_found', `Created ${address}, but the page has no email field to type it into.`, { address, url: state.page.url() });
      return { address, filled: false };
    }
    await field.locator.fill(address, { timeout: tools.settings.actionTimeoutMs });
    step.locator = { code: field.code, verified: true, strategy: 'email-field', source: 'ladder' };
    const value = await field.locator.inputValue({ timeout: 1000 }).catch(() => '');
    if (value !== address) throw new AppError('action_failed', `Typed ${address} into the email field, but it holds "${value}".`, { address, value });
    step.action = 'create_temp_email+fill';
    return { address, filled: true };
  }, { onPage: fill !== 'no' && !!mail });
}

/** Wait for the next unread email with a verification code (bounded); consume it. */
export async function nextCode(tools: CaseTools, signal?: AbortSignal): Promise<{ code: string; rule: string; message: StoredMessage }> {
  const mail = mailOf(tools);
  const started = Date.now();
  const m = await mail.next({ match: () => true, timeoutMs: EMAIL_WAIT_MS, consume: true, signal });
  if (!m) throw await noMessage(tools, 'email', Date.now() - started);
  if (!m.code) {
    throw new AppError('code_not_found', `The email ${describeMessage(m)} has no verification code (no 4-8 digit or letter-and-digit code near a word such as "code", "OTP" or "verification"). It says: ${JSON.stringify(m.text.slice(0, 300))}`, { message: { subject: m.subject, from: m.from, receivedAt: m.receivedAt } });
  }
  return { code: m.code.code, rule: m.code.rule, message: m };
}

/** Read the code from the email and enter it on the page (a split input by paste), then read the fields back. */
export async function enterCodeFromEmail(tools: CaseTools, role: string, ask: AskContext) {
  return tools.record(role, ask, 'enter_code', {}, async (state, step) => {
    const { code, rule, message } = await nextCode(tools);
    step.params = { value: code, text: `code from "${message.subject}" (${rule})` };
    const entry = await enterOneTimeCode(state!.page, code, tools.settings.actionTimeoutMs).catch((err: Error & { code?: string }) => {
      throw new AppError(err.code === 'target_not_found' ? 'target_not_found' : 'action_failed', err.message, { code });
    });
    step.params.key = entry.method;
    if (entry.value !== code) {
      throw new AppError('action_failed', `Entered the code ${code} (${entry.method}, ${entry.boxes} field${entry.boxes > 1 ? 's' : ''}), but the fields hold "${entry.value}".`, { code, entered: entry.value, method: entry.method });
    }
    return entry;
  }, { onPage: true });
}

/** Open the confirmation (or magic sign-in) link of the next unread email in the role's tab. */
export async function openEmailLink(tools: CaseTools, role: string, ask: AskContext) {
  let url = '';
  const read = await tools.record(role, ask, 'read_email_link', {}, async (_state, step) => {
    const mail = mailOf(tools);
    const started = Date.now();
    const m = await mail.next({ match: () => true, timeoutMs: EMAIL_WAIT_MS, consume: true });
    if (!m) throw await noMessage(tools, 'email', Date.now() - started);
    if (!m.link) throw new AppError('link_not_found', `The email ${describeMessage(m)} has no link to open.`, { message: { subject: m.subject, from: m.from } });
    url = m.link.url;
    step.params = { url, text: `link from "${m.subject}" (${m.link.rule})` };
    return m.link;
  });
  if (!read.ok) return { ok: false, step: read.step, error: read.error };
  return tools.act(role, { action: 'navigate', url }, ask);
}

/** Wait until an email arrives (matching subject/from when given); it stays unread for the next step. */
export async function waitForEmail(tools: CaseTools, role: string, ask: AskContext, want: { subject?: string; from?: string }) {
  return tools.record(role, ask, 'wait_for_email', { ...(want.subject ? { text: want.subject } : {}) }, async () => {
    const mail = mailOf(tools);
    const started = Date.now();
    const m = await mail.next({ match: matcher(want), timeoutMs: EMAIL_WAIT_MS });
    if (!m) throw await noMessage(tools, `email${want.subject ? ` with subject containing "${want.subject}"` : ''}${want.from ? ` from "${want.from}"` : ''}`, Date.now() - started);
    return { subject: m.subject, from: m.from };
  });
}

function matcher(want: { subject?: string; from?: string }) {
  return (m: StoredMessage) =>
    (!want.subject || m.subject.toLowerCase().includes(want.subject.toLowerCase())) && (!want.from || m.from.toLowerCase().includes(want.from.toLowerCase()));
}

/** Verify an email arrived (from / with subject), waiting a bounded time. */
export async function assertEmailReceived(tools: CaseTools, role: string, ask: AskContext & { description?: string }, want: { subject?: string; from?: string }): Promise<AssertionRecord> {
  return tools.assertOutside(role, { type: 'email_received', ...want }, ask, async () => {
    const mail = mailOf(tools);
    const m = await mail.any({ match: matcher(want), timeoutMs: Math.max(tools.settings.assertTimeoutMs, 10_000) });
    if (m) return { passed: true, actual: describeMessage(m) };
    const s = await mail.summary();
    return { passed: false, actual: s.messages.length ? `the inbox holds: ${s.messages.map((x) => `"${x.subject}" from ${x.from}`).join('; ')}` : `no email arrived at ${s.address}` };
  });
}

function absolute(url: string, base: string): string {
  try {
    return new URL(url, base).toString();
  } catch {
    return url;
  }
}

/** An HTTP request from the service, recorded as a step with its answer (bounded). */
export async function httpStep(tools: CaseTools, role: string, ask: AskContext, spec: HttpRequestSpec, base: string) {
  const req = { ...spec, url: absolute(await tools.expandEmail(spec.url), base) };
  return tools.record(role, ask, 'http_request', { url: req.url, text: req.method }, async (): Promise<HttpAnswer> => {
    return httpRequest(req, { timeoutMs: HTTP_TIMEOUT_MS, maxBytes: HTTP_MAX_BYTES, allowedSchemes: tools.settings.allowedSchemes, fetch: tools.settings.outboundFetch });
  });
}

/** Verify an HTTP answer: status and/or a text in the body. */
export async function assertHttp(tools: CaseTools, role: string, ask: AskContext & { description?: string }, check: { method: string; url: string; status?: number; contains?: string }, base: string): Promise<AssertionRecord> {
  const url = absolute(check.url, base);
  return tools.assertOutside(role, { type: 'http', ...check, url }, ask, async () => {
    const a = await httpRequest({ method: check.method, url }, { timeoutMs: HTTP_TIMEOUT_MS, maxBytes: HTTP_MAX_BYTES, allowedSchemes: tools.settings.allowedSchemes, fetch: tools.settings.outboundFetch });
    const statusOk = check.status === undefined || a.status === check.status;
    const bodyOk = check.contains === undefined || a.body.includes(check.contains);
    return { passed: statusOk && bodyOk, actual: `${a.status} ${a.statusText}${check.contains !== undefined ? `, body starts ${JSON.stringify(a.body.slice(0, 200))}` : ''}` };
  });
}

/** The role's current page URL (relative URLs in HTTP steps resolve against it). */
export async function currentUrl(tools: CaseTools, role: string): Promise<string> {
  return tools.session.run(role, async (state) => state.page.url());
}
