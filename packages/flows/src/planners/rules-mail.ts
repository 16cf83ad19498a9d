import type { PlanStep } from '../plan.js';
import type { AskContext, CaseTools } from '../tools.js';
import { assertEmailReceived, assertHttp, currentUrl, enterCodeFromEmail, httpStep, openEmailLink, useNewEmail, waitForEmail } from '../mail-steps.js';

// The rules planner's wording for steps outside the page (seed 001): the run's inbox
// ("Sign up with a new email address", "Enter the verification code from the email",
// "Open the confirmation link in the email", "Wait for an email with subject ...",
// "Verify an email arrived from ...") and HTTP checks ("Verify GET /api/health answers
// 200", "... contains "ok"", "Send a POST to /hooks/x with body {...}"). Sentences
// that are not about mail or HTTP return null and go to the page planner.

export type MailIntent =
  | { kind: 'new_email'; fill: 'required' | 'if-present' | 'no' }
  | { kind: 'enter_code' }
  | { kind: 'open_link' }
  | { kind: 'wait_email'; subject?: string; from?: string }
  | { kind: 'assert_email'; subject?: string; from?: string }
  | { kind: 'http'; method: string; url: string; body?: string }
  | { kind: 'assert_http'; method: string; url: string; status?: number; contains?: string };

const EMAIL = '(?:e-?mail(?:\\s+address)?|address|inbox|mailbox)';
const FRESH = '(?:a\\s+)?(?:new|temporary|temp|disposable|fresh|throwaway|random)';
const VERB_CHECK = '(?:verify|check|assert|confirm|ensure|expect)(?:\\s+that)?';

function unq(s: string): string {
  const t = s.trim().replace(/[.;]$/, '').trim();
  const m = /^["“'`](.*)["”'`]$/.exec(t);
  return m ? m[1] : t;
}

export function interpretMailStep(text: string): MailIntent | null {
  const s = text.trim().replace(/\s+/g, ' ').replace(/[.!]$/, '');
  let m: RegExpExecArray | null;
  // Sign up / register with a new email address (the address goes into the email field).
  if (new RegExp(`^(?:sign\\s*up|register|create an account|enroll)\\s+(?:with|using)\\s+${FRESH}\\s+${EMAIL}$`, 'i').test(s)) return { kind: 'new_email', fill: 'required' };
  if (new RegExp(`^(?:use|get|generate)\\s+${FRESH}\\s+${EMAIL}(?:\\s+address)?$`, 'i').test(s)) return { kind: 'new_email', fill: 'if-present' };
  if (new RegExp(`^create\\s+${FRESH}\\s+${EMAIL}(?:\\s+address)?$`, 'i').test(s)) return { kind: 'new_email', fill: 'no' };
  if (new RegExp(`^(?:enter|type|fill\\s+in|input|paste|use|submit)\\s+the\\s+(?:(?:verification|confirmation|one[- ]time|login|sign[- ]in|security|access|6-digit|\\d-digit|otp)\\s+)*(?:code|otp|pin|passcode)(?:\\s+(?:from|in|we\\s+sent\\s+to|sent\\s+to|sent\\s+in|received\\s+in|received\\s+by)\\s+(?:the|my|our|that)?\\s*(?:e-?mail|inbox|message|mailbox))?$`, 'i').test(s)) return { kind: 'enter_code' };
  if (/^(?:open|click|follow|visit|use)\s+the\s+(?:(?:confirmation|verification|magic|sign[- ]in|log[- ]?in|activation|login|invite|invitation|reset)\s+)*link\s+(?:from|in)\s+(?:the|my)\s+(?:e-?mail|inbox|message)$/i.test(s)) return { kind: 'open_link' };
  if ((m = new RegExp(`^wait\\s+(?:for|until)\\s+(?:an?|the)\\s+e-?mail(?:\\s+(?:arrives|comes|is\\s+received))?(?:\\s+from\\s+(.+?))?(?:\\s+(?:with|whose)\\s+(?:the\\s+)?subject(?:\\s+(?:is|contains|containing))?\\s+(.+?))?(?:\\s+from\\s+(.+?))?$`, 'i').exec(s))) {
    return { kind: 'wait_email', ...(m[2] ? { subject: unq(m[2]) } : {}), ...(m[1] || m[3] ? { from: unq((m[1] ?? m[3])!) } : {}) };
  }
  if ((m = new RegExp(`^${VERB_CHECK}\\s+(?:an?|the)\\s+e-?mail\\s+(?:arrived|was\\s+received|came|is\\s+received|was\\s+sent)(?:\\s+from\\s+(.+?))?(?:\\s+(?:with|whose)\\s+(?:the\\s+)?subject(?:\\s+(?:is|contains|containing))?\\s+(.+?))?(?:\\s+from\\s+(.+?))?$`, 'i').exec(s))) {
    return { kind: 'assert_email', ...(m[2] ? { subject: unq(m[2]) } : {}), ...(m[1] || m[3] ? { from: unq((m[1] ?? m[3])!) } : {}) };
  }
  // Verify GET /api/health answers 200 [and contains "ok"] / Verify GET /x contains "ok"
  if ((m = new RegExp(`^${VERB_CHECK}\\s+(GET|HEAD|POST|PUT|PATCH|DELETE)\\s+(\\S+)\\s+(.+)$`, 'i').exec(s))) {
    const rest = m[3];
    const status = /\b(?:answers|returns|responds(?:\s+with)?|gives|is|has\s+status)(?:\s+(?:with\s+)?(?:status|http))?\s+(\d{3})\b/i.exec(rest);
    const contains = /\b(?:contains|includes|has|returns|answers(?:\s+with)?)\s+(?:the\s+text\s+)?(["“'`].+?["”'`])/i.exec(rest);
    if (status || contains) {
      return { kind: 'assert_http', method: m[1].toUpperCase(), url: unq(m[2]), ...(status ? { status: Number(status[1]) } : {}), ...(contains ? { contains: unq(contains[1]) } : {}) };
    }
  }
  if ((m = /^(?:send|make|do)\s+an?\s+(GET|HEAD|POST|PUT|PATCH|DELETE)(?:\s+request)?\s+to\s+(\S+)(?:\s+with\s+(?:the\s+)?body\s+(.+))?$/i.exec(s))) {
    return { kind: 'http', method: m[1].toUpperCase(), url: unq(m[2]), ...(m[3] ? { body: unq(m[3]) } : {}) };
  }
  return null;
}

/** Runs a mail/HTTP step; false when it failed. */
export async function runMailStep(intent: MailIntent, step: PlanStep, tools: CaseTools, ask: AskContext): Promise<boolean> {
  const role = step.role;
  switch (intent.kind) {
    case 'new_email':
      return (await useNewEmail(tools, role, ask, intent.fill)).ok;
    case 'enter_code':
      return (await enterCodeFromEmail(tools, role, ask)).ok;
    case 'open_link':
      return (await openEmailLink(tools, role, ask)).ok;
    case 'wait_email':
      return (await waitForEmail(tools, role, ask, intent)).ok;
    case 'assert_email':
      return (await assertEmailReceived(tools, role, { ...ask, description: step.text }, intent)).passed;
    case 'http':
      return (await httpStep(tools, role, ask, { method: intent.method, url: intent.url, ...(intent.body !== undefined ? { body: intent.body, headers: { 'content-type': /^\s*[[{]/.test(intent.body) ? 'application/json' : 'text/plain' } } : {}) }, await currentUrl(tools, role))).ok;
    case 'assert_http':
      return (await assertHttp(tools, role, { ...ask, description: step.text }, intent, await currentUrl(tools, role))).passed;
  }
}
