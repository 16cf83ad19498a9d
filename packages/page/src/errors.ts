import { AppError } from '@ariadne/schema';
import type { PageState } from './page-state.js';

// Playwright errors → stable API errors. The first line of Playwright's message is
// kept (it says what was wrong); its call log is dropped from the message and kept
// short in details.

/** Playwright API names that prefix its messages: `locator.click: `, `page._wrapApiCall: `, `elementHandle.fill: `. */
const API_NAME = /(^|\n|\n\s*- )(?:page|frame|locator|elementHandle|jsHandle|browserContext|context|browser|keyboard|mouse|touchscreen|request|response|route|worker|dialog|frameLocator|tracing)\.[_A-Za-z$][\w$]*: (?:Error: )?/g;

/**
 * Playwright's text without its internal names (the API call a message comes from, its
 * `Error: ` tag): what the caller reads is what went wrong, in the service's words. The
 * single place every page error passes through (toAppError) applies it.
 */
export function withoutPlaywrightNames(text: string): string {
  let out = text;
  // Anchored at a line start or a call-log bullet: prose that mentions "page.html:" stays.
  // Prefixes nest ("page._wrapApiCall: locator.click: ..."): strip until none is left.
  for (let i = 0; i < 4 && API_NAME.test(out); i++) {
    API_NAME.lastIndex = 0;
    out = out.replace(API_NAME, '$1');
  }
  API_NAME.lastIndex = 0;
  return out.replace(/^Error: /, '');
}

export function toAppError(err: unknown, ctx: { action?: string; state?: PageState } = {}): AppError {
  if (err instanceof AppError) return err;
  // A fault of our own code (not a Playwright error): internal, its text is never shown.
  if (err instanceof TypeError || err instanceof ReferenceError || err instanceof RangeError || err instanceof SyntaxError || err instanceof EvalError || err instanceof URIError) {
    return Object.assign(new AppError('internal_error', `${err.name}: ${err.message}`), { cause: err });
  }
  const e = err as Error;
  const message = withoutPlaywrightNames((e?.message ?? String(err)).replace(/\u001b\[[0-9;]*m/g, ''));
  const [first, ...rest] = message.split('\n');
  const log = rest.join('\n').slice(0, 1500);
  const details: Record<string, unknown> = { ...(ctx.action ? { action: ctx.action } : {}), ...(log.trim() ? { log } : {}) };
  if (ctx.state?.crashed) return new AppError('session_crashed', 'The page crashed.', details);
  if (/Target page, context or browser has been closed|Browser has been closed|browser has disconnected/i.test(message)) {
    if (ctx.state?.dialog) return new AppError('dialog_pending', 'A dialog is open on this page; handle it first.', { ...details, dialog: ctx.state.dialogInfo() });
    return new AppError('session_crashed', 'The browser context is gone (crashed or closed).', details);
  }
  if (e?.name === 'TimeoutError' || /Timeout \d+ms exceeded/.test(first)) {
    // Playwright's first line says only that time ran out; its call log says why (covered,
    // hidden, moving, disabled): the last such reason goes into the message.
    const reasons = log.split('\n').map((l) => l.trim().replace(/^-\s*/, '')).filter((l) => /intercepts pointer events|not visible|not stable|not enabled|disabled|outside of the viewport|not attached|detached|not editable|not a checkbox|does not match/i.test(l));
    const why = reasons[reasons.length - 1];
    return new AppError('timeout', why && /exceeded\.?$/.test(first) ? `${first.replace(/\.$/, '')}: ${why.replace(/\.$/, '')}.` : first, details);
  }
  if (/net::ERR_|NS_ERROR|Navigation failed|navigating to/i.test(first)) {
    return new AppError('navigation_failed', first, details);
  }
  // A key name Playwright does not know is bad input, not a failed action.
  if (/Unknown key: /.test(first)) {
    return new AppError('invalid_request', first.replace(/^[\w.]+: /, ''), { ...details, field: 'key' });
  }
  if (/Unexpected token|is not a valid selector|Unknown engine|Malformed selector|while parsing selector/i.test(message)) {
    return new AppError('invalid_selector', first, details);
  }
  // A JS exception inside injected code (Playwright's or ours), e.g. "page.ariaSnapshotJSON:
  // RangeError: Maximum call stack size exceeded" on a hostile page: an internal fault.
  if (/^(?:[\w.]+: )?(TypeError|ReferenceError|RangeError|EvalError|URIError|InternalError|SyntaxError): /.test(first)) {
    return Object.assign(new AppError('internal_error', first), { cause: err });
  }
  if (/not an? (<select>|select|input|checkbox|radio)|Not a checkbox|Element is not|Cannot type|did not find some options|Error: (Not|Element)/i.test(message)) {
    return new AppError('action_failed', first, details);
  }
  return new AppError('action_failed', first || 'The action failed.', details);
}
