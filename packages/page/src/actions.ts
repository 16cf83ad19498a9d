import { readDrawnSelectState, selectDrawn } from './surface/select.js';
import { quietly } from './quiet.js';
import { inertClick, looksClickable } from './effect/inert.js';
import type { Locator, Page } from 'playwright-core';
import { AppError, type ActionBody } from '@ariadne/schema';
import type { PageState } from './page-state.js';
import { resolveDescription, resolveRef, type ResolvedTarget } from './targeting/resolve.js';
import type { TargetAction } from './targeting/spec.js';

/** What a description must resolve to for this action (a click never lands on prose). */
function actionKind(action: string): TargetAction {
  switch (action) {
    case 'click': case 'fill': case 'type': case 'check': case 'uncheck': case 'select': case 'hover': case 'clear': case 'upload': case 'drag': case 'scroll':
      return action;
    default:
      return 'any';
  }
}
import { checkNavigationUrl, guardNavigation, runNavigation } from './navigation.js';
import { snapshotView, type SnapshotView } from './snapshot/view.js';
import { toAppError, withoutPlaywrightNames } from './errors.js';
import { watchRequests, type SettleReport } from './settle.js';
import { EffectWatch, type Effect } from './effect/effect.js';
import { resolveSelector } from './targeting/selector.js';
import { isNumeric, planFill, ValueError, type FillPlan } from './values/field.js';
import { findSteppers, readFieldFacts, readFieldNumber } from './values/facts.js';
import { readNumber, readRelative, showNumber } from './values/numbers.js';
import { notCheckable, setSwitch } from './surface/switch.js';

// POST actions: one entry point for every action an agent can take on a page. Every
// action is bounded by a timeout; a dialog that opens mid-action is reported at once
// (the page is blocked until handle_dialog), never waited on.

export interface ActionContext {
  actionTimeoutMs: number;
  navigationTimeoutMs: number;
  /** How long the description ladder keeps retrying while the page settles. */
  describeWaitMs: number;
  allowedSchemes: string[];
  /** Tab ids of the role, to report tabs the action opened. */
  listPageIds: () => string[];
  /** Whether the evaluate action may run a caller's function in the page (ALLOW_EVALUATE). */
  allowEvaluate?: boolean;
  /** Told when each phase of the action ends (resolve, action, settle, snapshot, title): for timing. */
  lap?: (phase: string) => void;
}

export interface ActionOutcome {
  ok: true;
  action: string;
  pageId: string;
  url: string;
  title: string;
  target?: { ref?: string; resolvedBy: string; locator?: string; role?: string; name?: string; why?: string };
  durationMs: number;
  navigated: boolean;
  dialog?: { type: string; message: string; defaultValue?: string };
  newPages?: string[];
  result?: unknown;
  /** What the service waited for after the action before answering. */
  settle?: SettleReport;
  /** What the action did to the page (changed: false when nothing reacted). */
  effect?: Effect;
  snapshot?: SnapshotView;
}

const NEEDS_TARGET = new Set(['click', 'hover', 'fill', 'clear', 'select', 'check', 'uncheck', 'upload', 'drag']);

function need<T>(value: T | undefined, field: string, action: string, allowEmpty = false): T {
  if (value === undefined || value === null || (!allowEmpty && value === '')) {
    throw new AppError('invalid_request', `${action} needs "${field}".`, { field, action });
  }
  return value;
}

/**
 * Fields each action cannot do without, checked before any target is looked up: a
 * request that can never work is a 400 naming the field, whatever its ref says.
 * An empty value is a real value for fill (empties the field) and select (the
 * option whose value is "").
 */
function checkRequired(body: ActionBody, hasTarget = false): void {
  switch (body.action) {
    case 'navigate': need(body.url, 'url', body.action); break;
    case 'fill': case 'select': need(body.value, 'value', body.action, true); break;
    case 'type': need(body.text, 'text', body.action, true); break;
    case 'press': need(body.key, 'key', body.action); break;
    case 'upload': need(body.files, 'files', body.action); break;
    case 'evaluate': need(body.function, 'function', body.action); break;
    case 'drag':
      if (!body.targetRef && !body.targetDescription && !body.targetSelector) {
        throw new AppError('invalid_request', 'drag needs "targetRef" (or "targetDescription" as a fallback).', { field: 'targetRef', action: body.action });
      }
      break;
    case 'wait_for':
      if (body.text === undefined && body.textGone === undefined && body.time === undefined) {
        throw new AppError('invalid_request', 'wait_for needs "text", "textGone" or "time".', { field: 'text', action: body.action });
      }
      break;
    default:
      break;
  }
  if (NEEDS_TARGET.has(body.action) && !body.ref && !body.selector && !body.description && !hasTarget) {
    throw new AppError('invalid_request', `${body.action} needs a "ref" from the latest snapshot (or a "selector", or a "description" as a fallback).`, { field: 'ref', action: body.action });
  }
  if ([body.ref, body.selector, body.description].filter((v) => v !== undefined && v !== '').length > 1 && !hasTarget) {
    throw new AppError('invalid_request', 'Give one of "ref", "selector" or "description", not several.', { field: 'selector', action: body.action });
  }
}

/**
 * How long a description look-up keeps trying before a miss answers: DESCRIBE_WAIT_MS (1 s by
 * default, so an honest miss answers in well under 1.5 s), or longer when the request asks to
 * wait by giving its own timeoutMs (an element that appears late).
 */
export function lookupBudgetMs(ctx: ActionContext, timeoutMs: number | undefined): number {
  return typeof timeoutMs === 'number' ? Math.max(ctx.describeWaitMs, Math.min(timeoutMs, 120_000)) : ctx.describeWaitMs;
}

export async function resolveTarget(state: PageState, ref: string | undefined, description: string | undefined, ctx: ActionContext, field = 'ref', action: TargetAction = 'any', waitMs = ctx.describeWaitMs, selector?: string, values?: string[]): Promise<ResolvedTarget> {
  if (ref) return resolveRef(state, ref);
  if (selector) return resolveSelector(state, selector);
  if (description) return resolveDescription(state, description, { waitMs, action, ...(values ? { values } : {}) });
  throw new AppError('invalid_request', `Give a "${field}" from the latest snapshot (or a description as a fallback).`, { field });
}

export async function performAction(state: PageState, body: ActionBody, ctx: ActionContext, resolved?: ResolvedTarget): Promise<ActionOutcome> {
  const started = Date.now();
  const page = state.page;
  // Agents mix the two up ({ action: 'type', value }): a string in the other field is taken.
  if (body.action === 'type' && body.text === undefined && typeof body.value === 'string') body = { ...body, text: body.value };
  if (body.action === 'fill' && body.value === undefined && typeof body.text === 'string') body = { ...body, value: body.text };
  checkRequired(body, Boolean(resolved));
  if (body.action !== 'handle_dialog') state.assertNoDialog();
  const epochBefore = state.navEpoch;
  const urlBefore = page.url();
  const pagesBefore = new Set(ctx.listPageIds());
  const timeout = Math.min(body.timeoutMs ?? ctx.actionTimeoutMs, 120_000);

  let target: ResolvedTarget | undefined;
  const wantsTarget = NEEDS_TARGET.has(body.action) || Boolean(body.ref || body.selector || body.description);
  if (resolved) target = resolved;
  else if (wantsTarget && body.action !== 'navigate' && body.action !== 'wait_for' && body.action !== 'handle_dialog') {
    // A select's values say which list is meant when the words name none ("the list").
    const values = body.action === 'select' && body.value !== undefined ? (Array.isArray(body.value) ? body.value : [body.value]).map(String) : undefined;
    target = await resolveTarget(state, body.ref, body.description, ctx, 'ref', actionKind(body.action), lookupBudgetMs(ctx, body.timeoutMs), body.selector, values);
    ctx.lap?.('resolve');
  }
  // The page as it was when this action acted on it: the next described target may prefer
  // what this action brings into view (targeting/locate.ts freshOne).
  const shown = state.lastSnapshot && state.lastSnapshot.epoch === state.navEpoch ? state.lastSnapshot : null;
  // Watch what the action does (effect/effect.ts); not while a dialog blocks the page.
  const effectWatch = body.action === 'handle_dialog' ? null : await EffectWatch.start(state, body.action === 'click' ? target?.locator : undefined);
  ctx.lap?.('watch');

  // Race the action against a dialog opening: a modal dialog blocks the page and the
  // action would otherwise hang until its timeout.
  let onDialog: () => void = () => {};
  const dialogOpened = new Promise<'dialog'>((resolve) => {
    onDialog = () => resolve('dialog');
    state.once('dialog', onDialog);
  });
  // Watch requests from before the action, so the settle wait sees the ones it starts.
  const watch = body.action === 'wait_for' ? null : watchRequests(page, body.settle);
  const run = execute(state, body, target, ctx, timeout);
  let result: unknown;
  try {
    const winner = await Promise.race([run.then((r) => ({ r })), dialogOpened]);
    if (winner === 'dialog') {
      // The action finishes (or fails) in the background once the dialog is handled.
      run.catch(() => {});
    } else {
      result = winner.r;
      // A click the browser performed but whose event never reached the target.
      if (body.action === 'click' && effectWatch && !state.dialog) await effectWatch.checkClick(targetWords(target));
    }
  } catch (err) {
    watch?.stop();
    // A click that timed out because something else kept taking it says so.
    if (body.action === 'click' && effectWatch && !state.dialog && !(err instanceof AppError)) {
      try {
        await effectWatch.checkClick(targetWords(target));
      } catch (intercepted) {
        if (intercepted instanceof AppError) throw intercepted;
      }
    }
    effectWatch?.stop();
    const intercepted = body.action === 'click' || body.action === 'check' || body.action === 'uncheck' ? interceptedBy(err) : null;
    if (intercepted) {
      throw new AppError('click_intercepted', `The click could not reach ${targetWords(target)}: ${intercepted} kept receiving it until the timeout.`, {
        receivedBy: intercepted,
        hint: 'Another element covers it (an overlay, a sticky header, a row veil shown on hover). Close or scroll it away, or act on what covers it if that is what you meant.',
      });
    }
    throw toAppError(err, { action: body.action, state });
  } finally {
    state.off('dialog', onDialog);
  }
  ctx.lap?.('action');
  const wantsSnapshot = Boolean(body.snapshot && body.snapshot !== 'none');
  const takeSnapshot = (title?: string | Promise<string | undefined>, afterPendingCalls = false) => snapshotView(state, { diff: body.snapshot === 'diff', maxTokens: body.maxTokens, timeoutMs: ctx.actionTimeoutMs, title, afterPendingCalls });
  let settled: SettleReport | undefined;
  let settledTitle: string | undefined;
  let snapshot: SnapshotView | undefined;
  if (watch && !state.dialog && !page.isClosed()) {
    // The settle wait is the service's own observation, not part of the action: out of traces (quiet.ts).
    const settling = quietly(page, () => watch.settle());
    // No request seen yet: the wait is most likely one look at the page. The snapshot asked
    // for goes right behind that look instead of after it; it stands if the look saw nothing
    // start and nothing change (the page it was taken of is the settled page), else it is
    // taken again once the page has settled.
    const before = state.lastSnapshot;
    // Its title comes with the look (the look answers with the page's title).
    // It must reach the page after the look (which watches from when it starts): in order.
    const early = wantsSnapshot && watch.waits && watch.requestsSeen === 0 ? takeSnapshot(settling.then((r) => r.title, () => undefined), true) : null;
    early?.catch(() => {});
    const r = await settling;
    settled = r.report;
    settledTitle = r.title;
    if (early) {
      if (r.firstLookSettled && !state.dialog) snapshot = await early.catch(() => undefined);
      else if (!state.dialog) {
        // Taken too early: the diff is still against the snapshot from before the action.
        const taken = await early.then(() => state.lastSnapshot, () => null);
        if (taken && taken !== before) state.lastSnapshot = before;
      }
    }
  } else watch?.stop();
  ctx.lap?.('settle');

  const newPages = ctx.listPageIds().filter((id) => !pagesBefore.has(id));
  // With a snapshot asked for, the title comes with it; the settle wait reads it too: a round trip to the page fewer.
  // Without a look's title, the title is read alongside the snapshot (an action may have
  // renamed the document without changing the tree: a title cached with the tree would be stale).
  if (wantsSnapshot && !snapshot && !state.dialog) snapshot = await takeSnapshot(settledTitle ?? quietly(page, () => page.title()).catch(() => undefined));
  if (snapshot) ctx.lap?.('snapshot');
  const title = state.dialog ? '' : snapshot ? snapshot.title : settledTitle ?? (await state.readTitle(() => quietly(page, () => page.title())));
  ctx.lap?.('title');
  let effect: Effect | undefined;
  if (effectWatch) {
    const d = snapshot?.diff;
    const treeChanged = Boolean(d && (d.added.length || d.removed.length || d.changed.length));
    // A dialog blocks the page: the watch cannot be read, but the action clearly did something.
    if (state.dialog) {
      effectWatch.stop();
      effect = { changed: true, navigated: state.navEpoch !== epochBefore || page.url() !== urlBefore, requests: 0 };
    } else effect = await effectWatch.finish(treeChanged);
    ctx.lap?.('effect');
  }
  // A described click that landed on text and changed nothing: a landmark, not the control (effect/inert.ts).
  if (target?.resolvedBy.startsWith('description:')) {
    const role = target.role ?? (target.resolvedBy === 'description:text' ? 'text' : undefined);
    const inert = inertClick(body.action, { role, name: target.name, static: target.static }, effect, { dialog: Boolean(state.dialog), newPages: newPages.length });
    if (inert && !(await looksClickable(target.locator as Locator))) {
      throw new AppError('no_effect', inert, {
        target: { ...(target.ref ? { ref: target.ref } : {}), ...(role ? { role } : {}), ...(target.name ? { name: target.name } : {}) },
        hint: 'Name the control itself (its icon, its position among alike controls, or act on its ref from a snapshot).',
      });
    }
  }
  if (shown && target) state.shownAtLastAction = shown;
  const outcome: ActionOutcome = {
    ok: true,
    action: body.action,
    pageId: state.id,
    url: page.url(),
    title,
    ...(target ? { target: { ...(target.ref ? { ref: target.ref } : {}), resolvedBy: target.resolvedBy, ...(target.code ? { locator: target.code } : {}), ...(target.role ? { role: target.role } : {}), ...(target.name ? { name: target.name } : {}), ...(target.why ? { why: target.why } : {}) } } : {}),
    durationMs: 0,
    navigated: state.navEpoch !== epochBefore || page.url() !== urlBefore,
    ...(state.dialog ? { dialog: state.dialogInfo() } : {}),
    ...(newPages.length ? { newPages } : {}),
    ...(result !== undefined ? { result } : {}),
    ...(settled ? { settle: settled } : {}),
    ...(effect ? { effect } : {}),
  };
  if (snapshot) outcome.snapshot = snapshot;
  outcome.durationMs = Date.now() - started;
  return outcome;
}

/**
 * The element Playwright saw taking the pointer when a click timed out, from its call log
 * ("<div class="veil"></div> from <div class="row">…</div> subtree intercepts pointer events").
 */
function interceptedBy(err: unknown): string | null {
  const text = err instanceof Error ? err.message : '';
  const m = /(<[^\n]*?>)(?: from [^\n]*?)? (?:subtree )?intercepts pointer events/.exec(text);
  if (!m) return null;
  const el = m[1].length > 160 ? `${m[1].slice(0, 160)}…` : m[1];
  return el;
}

/** What an action aimed at, in words: `button "Send" (e12)`, or the selector / description. */
function targetWords(t: ResolvedTarget | undefined): string {
  if (!t) return 'the element';
  const what = t.role ? `${t.role}${t.name ? ` "${t.name}"` : ''}` : 'the element';
  return t.ref ? `${what} (${t.ref})` : t.code ? `${what} ${t.code}` : what;
}

async function execute(state: PageState, body: ActionBody, target: ResolvedTarget | undefined, ctx: ActionContext, timeout: number): Promise<unknown> {
  const page = state.page;
  const loc = target?.locator as Locator;
  const navTimeout = Math.min(body.timeoutMs ?? ctx.navigationTimeoutMs, 120_000);
  switch (body.action) {
    case 'navigate': {
      const url = checkNavigationUrl(need(body.url, 'url', 'navigate'), ctx.allowedSchemes, page);
      await guardNavigation(page, url);
      const res = await runNavigation(page, () => page.goto(url, { waitUntil: 'load', timeout: navTimeout }));
      return { status: res?.status() ?? null };
    }
    case 'back': {
      const res = await runNavigation(page, () => page.goBack({ waitUntil: 'load', timeout: navTimeout }));
      return { navigated: res !== null };
    }
    case 'forward': {
      const res = await runNavigation(page, () => page.goForward({ waitUntil: 'load', timeout: navTimeout }));
      return { navigated: res !== null };
    }
    case 'reload': {
      const res = await runNavigation(page, () => page.reload({ waitUntil: 'load', timeout: navTimeout }));
      return { status: res?.status() ?? null };
    }
    case 'click':
      await loc.click({
        button: body.button,
        modifiers: body.modifiers as never,
        clickCount: body.double ? 2 : 1,
        timeout,
      });
      return undefined;
    case 'hover':
      await loc.hover({ timeout });
      return undefined;
    case 'fill': {
      const raw = String(need(body.value, 'value', 'fill', true));
      // "Set Role to Admin" on a drop-down drawn without ARIA: the value is chosen, not typed.
      if (await drawnSelect(loc, timeout)) return selectDrawn(page, loc, [raw], timeout);
      // The value as the field takes it (values/): ISO for a date input, the format a text
      // field shows, a number within min/max, or steps of the field's own +/− controls.
      const plan = await fieldPlan(loc, raw, timeout);
      if (plan?.kind === 'step') return stepTo(page, loc, plan, timeout);
      const value = plan ? plan.value : raw;
      const taking = body.submit ? watchRequests(page, 1000) : null;
      await loc.fill(value, { timeout });
      const committed = plan?.numeric ? await commitNumber(loc, value) : undefined;
      const submitted = taking ? await submitWithEnter(state, loc, value, taking, timeout) : undefined;
      return value === raw && !submitted && !committed ? undefined : { ...(value !== raw ? { filled: value, from: raw, ...(plan?.note ? { read: plan.note } : {}) } : {}), ...(committed ?? {}), ...(submitted ?? {}) };
    }
    case 'clear':
      await loc.clear({ timeout });
      return undefined;
    case 'type': {
      const given = need(body.text, 'text', 'type', true);
      if (loc) {
        const plan = body.append ? null : await fieldPlan(loc, given, timeout);
        if (plan?.kind === 'step') return stepTo(page, loc, plan, timeout);
        const text = plan ? plan.value : given;
        // A native date/time input takes no typed ISO text: it is filled.
        if (plan?.kind === 'fill' && plan.native) {
          await loc.fill(text, { timeout });
          return text !== given ? { typed: text, from: given, ...(plan.note ? { read: plan.note } : {}) } : undefined;
        }
        if (!body.append) await loc.fill('', { timeout });
        else await caretToEnd(loc, timeout);
        // Real key events, one per character: split OTP inputs and key handlers see them.
        const taking = body.submit ? watchRequests(page, 1000) : null;
        await loc.pressSequentially(text, { timeout });
        if (taking) return submitWithEnter(state, loc, text, taking, timeout);
        if (text !== given) return { typed: text, from: given, ...(plan?.note ? { read: plan.note } : {}) };
      } else {
        await page.keyboard.type(given);
        if (body.submit) await page.keyboard.press('Enter');
      }
      return undefined;
    }
    case 'press': {
      const key = need(body.key, 'key', 'press');
      if (loc) await loc.press(key, { timeout });
      else await page.keyboard.press(key);
      return undefined;
    }
    case 'select': {
      const raw = need(body.value, 'value', 'select', true);
      const values = Array.isArray(raw) ? raw : [raw];
      const native = await loc.evaluate((el) => el instanceof HTMLSelectElement, undefined, { timeout }).catch(() => true);
      if (!native) return selectAria(page, loc, values, timeout);
      // An option that is not there fails at once with the ones that are (selectOption would wait out its timeout).
      const present = await loc.evaluate((el) => [...(el as HTMLSelectElement).options].map((o) => ({ label: o.label.trim(), value: o.value })), undefined, { timeout }).catch(() => null);
      let read: { from: string; chose: string }[] = [];
      if (present) {
        const exact = (v: string) => present.some((o) => (body.by !== 'value' && o.label === v.trim()) || (body.by !== 'label' && o.value === v));
        // A value as a person reads it off the list: "Berlin" for "Europe/Berlin", "germany" for "Germany".
        if (body.by !== 'value') read = values.filter((v) => !exact(v)).map((v) => ({ from: v, chose: optionAsRead(present.map((o) => o.label), v) ?? '' })).filter((r) => r.chose);
        const missing = values.filter((v) => !exact(v) && !read.some((r) => r.from === v));
        if (missing.length) throw new AppError('action_failed', `No option ${missing.map((m) => JSON.stringify(m)).join(', ')} to choose; the options are: ${present.slice(0, 15).map((o) => JSON.stringify(o.label)).join(', ')}.`, { missing, options: present.slice(0, 30).map((o) => o.label) });
      }
      const chosen = read.length ? values.map((v) => read.find((r) => r.from === v)?.chose ?? v) : values;
      const opts = body.by === 'label' || read.length ? chosen.map((label) => ({ label })) : body.by === 'value' ? values.map((value) => ({ value })) : values;
      const selected = await loc.selectOption(opts as never, { timeout });
      // The choice read back once the page's change handlers ran: a page may undo it.
      await page.waitForTimeout(0);
      const now = await loc.evaluate((el) => [...(el as HTMLSelectElement).selectedOptions].map((o) => ({ label: o.label.trim(), value: o.value })), undefined, { timeout: 2000 }).catch(() => null);
      if (now && selected.some((v) => !now.some((o) => o.value === v))) {
        throw new AppError('select_failed', `Chose ${chosen.map((v) => JSON.stringify(v)).join(', ')}, but the select now shows ${now.length ? now.map((o) => JSON.stringify(o.label)).join(', ') : 'nothing'}: the page changed it back.`, { expected: chosen, observed: now.map((o) => o.label) });
      }
      return { selected, ...(now ? { showing: now.map((o) => o.label) } : {}), ...(read.length ? { read } : {}) };
    }
    case 'check':
    case 'uncheck':
      return setChecked(loc, body.action === 'check', timeout);
    case 'upload': {
      const files = need(body.files, 'files', 'upload');
      await loc.setInputFiles(
        files.map((f) => ({ name: f.name, mimeType: f.mimeType ?? 'application/octet-stream', buffer: Buffer.from(f.contentBase64, 'base64') })),
        { timeout },
      );
      // The effect: the input holds exactly the files given (an app may reject or clear them).
      const held = await loc.evaluate((el) => (el instanceof HTMLInputElement && el.files ? [...el.files].map((f) => f.name) : null), undefined, { timeout: 2000 }).catch(() => null);
      if (held && held.join('\n') !== files.map((f) => f.name).join('\n')) {
        throw new AppError('action_failed', `The file input holds ${held.length ? held.map((n) => `"${n}"`).join(', ') : 'no file'} after the upload.`, { expected: files.map((f) => f.name), observed: held });
      }
      return { files: files.map((f) => f.name) };
    }
    case 'drag': {
      const dest = await resolveTarget(state, body.targetRef, body.targetDescription, ctx, 'targetRef', 'any', lookupBudgetMs(ctx, body.timeoutMs), body.targetSelector);
      await loc.dragTo(dest.locator, { timeout });
      return { targetRef: dest.ref };
    }
    case 'scroll':
      return scroll(page, loc, body, timeout);
    case 'wait_for':
      return waitFor(page, body, timeout);
    case 'handle_dialog': {
      const d = state.dialog;
      if (!d) throw new AppError('no_dialog', 'No dialog is open on this page.');
      const info = state.dialogInfo();
      state.dialog = null;
      if (body.accept === false) await d.dismiss();
      else await d.accept(body.promptText);
      return { handled: info, accepted: body.accept !== false };
    }
    case 'evaluate':
      if (!ctx.allowEvaluate) throw new AppError('evaluate_disabled', 'The evaluate action is turned off on this service (ALLOW_EVALUATE=0).', { field: 'function' });
      return evaluateFunction(page, loc, need(body.function, 'function', 'evaluate'), timeout);
    case 'screenshot': {
      const type = body.format ?? 'png';
      const buf = loc ? await loc.screenshot({ type, timeout }) : await page.screenshot({ type, timeout });
      return { mimeType: `image/${type}`, base64: buf.toString('base64'), bytes: buf.length };
    }
  }
}

/**
 * Enter, once the page has taken the text, then proof that it submitted. "Taken": the
 * requests the typing started are done and the page had its look (a macrotask, and the
 * animation frame a scheduled render asked for): a component that commits its state from
 * the input event on a later tick has committed it before Enter reads it. "Submitted":
 * the field no longer holds the text (cleared, or the element was replaced), or the page
 * navigated, sent a request or changed its DOM. A field that still holds the text on a
 * page that did not react is no_effect, never ok.
 */
async function submitWithEnter(state: PageState, loc: Locator, text: string, taking: ReturnType<typeof watchRequests>, timeout: number): Promise<{ submitted: true }> {
  const page = state.page;
  await quietly(page, () => taking.settle()).catch(() => undefined);
  const watch = await EffectWatch.start(state);
  const settle = watchRequests(page, 2000);
  try {
    await loc.press('Enter', { timeout });
  } catch (err) {
    settle.stop();
    watch.stop();
    throw err;
  }
  if (state.dialog) {
    settle.stop();
    watch.stop();
    return { submitted: true };
  }
  await quietly(page, () => settle.settle()).catch(() => undefined);
  const seen = await watch.finish();
  if (seen.navigated || seen.requests > 0 || (seen.dom ?? 0) > 0 || state.dialog) return { submitted: true };
  const held = await loc.inputValue({ timeout: 500 }).catch(() => null);
  if (held === null || held.trim() !== text.trim()) return { submitted: true };
  throw new AppError('no_effect', `Pressed Enter to submit, but the page did not react: the field still holds ${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)} and nothing changed (no DOM change, request or navigation).`, {
    value: held.length > 200 ? `${held.slice(0, 200)}…` : held,
    hint: 'This field does not submit on Enter: click the form\'s submit button instead (take a snapshot to find it).',
  });
}

/** The longest serialized evaluate result an answer carries. */
export const EVALUATE_MAX_CHARS = 20_000;

/**
 * A caller's function, run in the page (Playwright MCP's browser_evaluate): `() => …`, or
 * `(element) => …` with a target. The source is evaluated as an expression over CDP (no
 * eval in the page, so a strict CSP does not refuse it), then called; its result is
 * serialized in the page with cycles, DOM nodes, functions and huge values made safe, and
 * cut to EVALUATE_MAX_CHARS with a marker.
 */
async function evaluateFunction(page: Page, loc: Locator | undefined, source: string, timeout: number): Promise<unknown> {
  const src = source.trim();
  let fn;
  try {
    fn = await page.evaluateHandle(`(${src})`);
  } catch (err) {
    throw new AppError('invalid_request', `function does not parse: ${withoutPlaywrightNames(((err as Error).message ?? '').split('\n')[0])}`, { field: 'function' });
  }
  try {
    const isFn = await fn.evaluate((f) => typeof f === 'function');
    if (!isFn) throw new AppError('invalid_request', 'function must be a function: () => { … } or (element) => { … }.', { field: 'function' });
    const el = loc ? await loc.elementHandle({ timeout }) : null;
    try {
      const run = fn.evaluate(
        async (f, [target, max]) => {
          const value = await (f as (e?: unknown) => unknown)(target ?? undefined);
          const seen = new WeakSet<object>();
          let text: string | undefined;
          try {
            text = JSON.stringify(value, (_k, v) => {
              if (typeof v === 'bigint') return `${v}n`;
              if (typeof v === 'function') return `[function ${v.name || 'anonymous'}]`;
              if (typeof v === 'symbol') return String(v);
              if (v instanceof Node) return v instanceof Element ? `<${v.tagName.toLowerCase()}${v.id ? `#${v.id}` : ''}>` : `[${v.nodeName}]`;
              if (v && typeof v === 'object') {
                if (seen.has(v)) return '[circular]';
                seen.add(v);
              }
              return v;
            });
          } catch (e) {
            text = JSON.stringify(`[unserializable: ${(e as Error).message}]`);
          }
          if (text === undefined) return { type: typeof value, json: null as string | null, length: 0 };
          return { type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value, json: text.length > max ? text.slice(0, max) : text, length: text.length };
        },
        [el, EVALUATE_MAX_CHARS] as const,
      );
      let timer: NodeJS.Timeout | undefined;
      const r = await Promise.race([
        run,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new AppError('timeout', `The function did not finish within ${timeout} ms.`)), timeout);
        }),
      ]).finally(() => clearTimeout(timer));
      const truncated = r.length > EVALUATE_MAX_CHARS;
      let value: unknown = r.json;
      if (r.json !== null && !truncated) value = JSON.parse(r.json);
      return { type: r.type, value, ...(truncated ? { truncated: true, chars: r.length } : {}) };
    } finally {
      await el?.dispose().catch(() => {});
    }
  } finally {
    await fn.dispose().catch(() => {});
  }
}

/** A drop-down drawn without ARIA (not a field: a box with a value and a caret). */
async function drawnSelect(loc: Locator, timeout: number): Promise<boolean> {
  const field = await loc.evaluate((el) => el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || (el as HTMLElement).isContentEditable || el.hasAttribute('role'), undefined, { timeout }).catch(() => true);
  return !field && Boolean(await readDrawnSelectState(loc, timeout).catch(() => null));
}

/**
 * select on an ARIA widget (not a <select>): an autocomplete input gets the text typed and
 * the option with exactly that name clicked; a listbox or a button-like combobox is opened
 * and its options clicked. The choice is read back; an option that is not there is an
 * error listing the ones that are, never a field left holding typed text.
 */
async function selectAria(page: Page, loc: Locator, values: string[], timeout: number): Promise<unknown> {
  const info = await loc.evaluate((el) => ({
    editable: el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || (el as HTMLElement).isContentEditable,
    role: el.getAttribute('role') ?? '',
    controls: el.getAttribute('aria-controls') ?? el.getAttribute('aria-owns') ?? '',
  }), undefined, { timeout });
  // A drop-down drawn without ARIA (a box with a value and a caret): its choices are whatever opens.
  if (!info.editable && (info.role === '' || info.role === 'button') && (await readDrawnSelectState(loc, timeout).catch(() => null))) return selectDrawn(page, loc, values, timeout);
  const chosen: string[] = [];
  for (const value of values) {
    if (info.editable) {
      await loc.fill('', { timeout });
      await loc.pressSequentially(value, { timeout });
    } else if (info.role !== 'listbox') {
      await loc.click({ timeout });
    }
    const scope = info.role === 'listbox' ? loc : info.controls ? page.locator(`[id="${info.controls.split(/\s+/)[0].replace(/"/g, '\\"')}"]`) : page;
    const option = scope.getByRole('option', { name: value, exact: true }).filter({ visible: true });
    const deadline = Date.now() + Math.min(timeout, 2000);
    while ((await option.count().catch(() => 0)) === 0 && Date.now() < deadline) await page.waitForTimeout(100);
    if ((await option.count().catch(() => 0)) === 0) {
      const shown = await scope.getByRole('option').filter({ visible: true }).allInnerTexts().catch(() => [] as string[]);
      if (info.editable) await loc.fill('', { timeout }).catch(() => {});
      throw new AppError('action_failed', `No option "${value}" to choose${shown.length ? `; the options are: ${shown.slice(0, 15).map((t) => JSON.stringify(t.trim())).join(', ')}` : ' (no options appeared)'}.`, { value, options: shown.slice(0, 30) });
    }
    await option.first().click({ timeout });
    chosen.push(value);
  }
  if (info.editable && values.length === 1) {
    const v = await loc.inputValue({ timeout: 1000 }).catch(() => null);
    if (v !== null && v.trim().toLowerCase() !== values[0].trim().toLowerCase()) {
      throw new AppError('select_failed', `After choosing "${values[0]}" the field holds ${JSON.stringify(v)}.`, { expected: values[0], observed: v });
    }
  } else if (info.role === 'listbox') {
    // A listbox shows its choice as aria-selected options.
    const picked = await loc.getByRole('option', { selected: true }).allInnerTexts().catch(() => null);
    if (picked && values.some((v) => !picked.some((t) => t.trim().toLowerCase() === v.trim().toLowerCase()))) {
      throw new AppError('select_failed', `Chose ${values.map((v) => JSON.stringify(v)).join(', ')}, but the listbox has ${picked.length ? picked.map((t) => JSON.stringify(t.trim())).join(', ') : 'nothing'} selected.`, { expected: values, observed: picked });
    }
  }
  return { selected: chosen };
}

/**
 * check/uncheck that survives a re-render: apps that rebuild the row on change (most
 * to-do lists) detach the box Playwright's check() would wait on. Read the state, click
 * once, and read it again: a box still there in the old state is a failure; a box that
 * was replaced is reported as such (the caller can re-find it to verify).
 */
async function setChecked(loc: Locator, want: boolean, timeout: number): Promise<unknown> {
  let before: boolean;
  try {
    before = await loc.isChecked({ timeout });
  } catch (err) {
    // No checked state Playwright knows: a switch drawn without ARIA, read as drawn (surface/switch.ts).
    if (!notCheckable(err)) throw err;
    const done = await setSwitch(loc, want, timeout);
    if (done) return done;
    throw err;
  }
  if (before === want) return { checked: want, changed: false };
  await loc.click({ timeout });
  const deadline = Date.now() + 1000;
  for (;;) {
    const attached = (await loc.count().catch(() => 0)) > 0;
    if (!attached) return { checked: want, changed: true, replaced: true };
    const after = await loc.isChecked({ timeout: 500 }).catch(() => null);
    if (after === want) return { checked: want, changed: true };
    if (Date.now() >= deadline) {
      throw new AppError('check_failed', `Clicking the ${want ? 'unchecked' : 'checked'} box did not ${want ? 'check' : 'uncheck'} it (it is still ${after ? 'checked' : 'unchecked'}).`, { observed: after ? 'checked' : 'unchecked', expected: want ? 'checked' : 'unchecked' });
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Focus the field with the caret after its text: focus() alone leaves the caret at the
 * start of a value the page set, and "append" would then prepend.
 */
async function caretToEnd(loc: Locator, timeout: number): Promise<void> {
  await loc.focus({ timeout });
  const moved = await loc.evaluate((el) => {
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      try {
        el.setSelectionRange(el.value.length, el.value.length);
        return true;
      } catch {
        return false; // email, number ...: no selection API
      }
    }
    if (el instanceof HTMLElement && el.isContentEditable) {
      const range = document.createRange();
      range.selectNodeContents(el);
      range.collapse(false);
      const sel = window.getSelection();
      sel?.removeAllRanges();
      sel?.addRange(range);
      return true;
    }
    return false;
  }, undefined, { timeout });
  if (!moved) await loc.press('End', { timeout });
}

async function scroll(page: Page, loc: Locator | undefined, body: ActionBody, timeout: number): Promise<unknown> {
  const dir = body.direction;
  const amount = body.amount ?? 600;
  if (loc && !dir) {
    await loc.scrollIntoViewIfNeeded({ timeout });
    return { scrolledIntoView: true };
  }
  const delta = { up: [0, -amount], down: [0, amount], left: [-amount, 0], right: [amount, 0] } as Record<string, [number, number]>;
  const args = { dir: dir ?? 'down', dx: delta[dir ?? 'down']?.[0] ?? 0, dy: delta[dir ?? 'down']?.[1] ?? 0 };
  // One self-contained function (Playwright ships its source to the page, so it cannot
  // call helpers from here). The page itself scrolls through <html>, which stands for
  // the document's scrolling element.
  const target = loc ?? page.locator(':root');
  return target.evaluate((el, { dir, dx, dy }) => {
    const box = el === document.documentElement ? (document.scrollingElement ?? el) : el;
    if (dir === 'top') box.scrollTo(box.scrollLeft, 0);
    else if (dir === 'bottom') box.scrollTo(box.scrollLeft, box.scrollHeight);
    else box.scrollBy(dx, dy);
    return { scrollX: box.scrollLeft, scrollY: box.scrollTop, scrollHeight: box.scrollHeight, clientHeight: box.clientHeight };
  }, args, { timeout });
}

async function waitFor(page: Page, body: ActionBody, timeout: number): Promise<unknown> {
  if (body.text === undefined && body.textGone === undefined && body.time === undefined) {
    throw new AppError('invalid_request', 'wait_for needs "text", "textGone" or "time".', { field: 'text' });
  }
  const started = Date.now();
  if (body.time !== undefined) await page.waitForTimeout(Math.min(body.time, timeout));
  if (body.text !== undefined) await page.getByText(body.text).first().waitFor({ state: 'visible', timeout });
  if (body.textGone !== undefined) {
    const loc = page.getByText(body.textGone);
    const deadline = Date.now() + timeout;
    // Every match must be gone or hidden, not only the first.
    while ((await visibleCount(loc)) > 0) {
      if (Date.now() > deadline) throw new AppError('timeout', `"${body.textGone}" was still visible after ${timeout} ms.`, { textGone: body.textGone });
      await page.waitForTimeout(100);
    }
  }
  return { waitedMs: Date.now() - started };
}

async function visibleCount(loc: Locator): Promise<number> {
  const n = await loc.count();
  let visible = 0;
  for (let i = 0; i < Math.min(n, 50); i++) if (await loc.nth(i).isVisible()) visible++;
  return visible;
}

/**
 * fill as the fill action does it, for callers that hold a locator of their own (a replayed
 * locator): the value in the field's own form, a number stepped or read back.
 */
export async function fillField(loc: Locator, raw: string, timeout: number): Promise<unknown> {
  const plan = await fieldPlan(loc, raw, timeout);
  if (plan?.kind === 'step') return stepTo(loc.page(), loc, plan, timeout);
  const value = plan ? plan.value : raw;
  await loc.fill(value, { timeout });
  if (plan?.numeric) await commitNumber(loc, value);
  return value !== raw ? { filled: value, from: raw } : undefined;
}

/**
 * What fill/type should put into the field for `raw` (values/field.ts), or null to type it
 * as given. Only a value that could need converting (digits, a number word, "tomorrow",
 * "+=2") costs the look at the field. A value that cannot go in faithfully is an
 * invalid_request naming why (ambiguous date, not a date, out of range).
 */
async function fieldPlan(loc: Locator, raw: string, timeout: number): Promise<FillPlan | null> {
  if (raw === '' || raw.length > 100) return null;
  const facts = await readFieldFacts(loc, timeout).catch(() => null);
  if (!facts) {
    // A step from the current value is never typed as text.
    if (readRelative(raw) !== null) throw new AppError('invalid_request', 'Could not read the field to step its value from where it is.', { reason: 'invalid_value' });
    return null;
  }
  // A text input holding a number, with +/− beside it (a jQuery UI spinner, a quantity stepper), is a number field.
  if (!isNumeric(facts) && readNumber(facts.value) !== null && (readNumber(raw) !== null || readRelative(raw) !== null)) {
    facts.steppers = (await findSteppers(loc, timeout).catch(() => null)) !== null;
  }
  try {
    return planFill(raw, facts);
  } catch (err) {
    if (err instanceof ValueError) throw new AppError('invalid_request', err.message, { reason: err.code, ...err.details });
    throw err;
  }
}

/**
 * After typing a number: leave the field (its change handlers run, as when a person tabs
 * on), then read it back. A page that clamps or rejects the number is an error naming what
 * the field shows, never a pass.
 */
async function commitNumber(loc: Locator, typed: string): Promise<{ showing: string } | undefined> {
  await loc.blur({ timeout: 1000 }).catch(() => {});
  await loc.page().waitForTimeout(0);
  const now = await loc.inputValue({ timeout: 1000 }).catch(() => null);
  if (now === null) return undefined; // replaced on change: nothing to read back
  if (now.trim() !== typed && readNumber(now) !== Number(typed)) {
    throw new AppError('action_failed', `Typed ${typed}, but the field now shows ${JSON.stringify(now)}: the page changed or refused it.`, { typed, observed: now });
  }
  return undefined;
}

/**
 * A number field that cannot be typed into: its own up/down controls pressed one at a time
 * (or ArrowUp/ArrowDown on a spinbutton without them), the value read after each press.
 * A press that moves nothing, or a value that passes the target, is an error naming where
 * the field stopped.
 */
async function stepTo(page: Page, loc: Locator, plan: Extract<FillPlan, { kind: 'step' }>, timeout: number): Promise<unknown> {
  const steppers = await findSteppers(loc, timeout);
  const role = await loc.getAttribute('role', { timeout }).catch(() => null);
  if (!steppers && role !== 'spinbutton') {
    throw new AppError('action_failed', `The field cannot be typed into and has no up/down controls beside it to step it from ${showNumber(plan.from)} to ${showNumber(plan.to)}.`, { from: plan.from, to: plan.to });
  }
  let current = (await readFieldNumber(loc)) ?? plan.from;
  let presses = 0;
  while (current !== plan.to) {
    const up = plan.to > current;
    if (presses >= 100) throw new AppError('action_failed', `Stopped after 100 presses: the field shows ${showNumber(current)}, not ${showNumber(plan.to)}.`, { observed: current, expected: plan.to });
    if (steppers) await (up ? steppers.up : steppers.down).click({ timeout });
    else await loc.press(up ? 'ArrowUp' : 'ArrowDown', { timeout });
    presses++;
    let next = await readFieldNumber(loc);
    for (let i = 0; i < 5 && next === current; i++) {
      await page.waitForTimeout(50);
      next = await readFieldNumber(loc);
    }
    if (next === null || next === current) {
      throw new AppError('action_failed', `Pressing ${up ? 'up' : 'down'} did not change the field: it stays at ${next === null ? 'a value that is not a number' : showNumber(current)} (wanted ${showNumber(plan.to)}; it may be at its ${up ? 'maximum' : 'minimum'}).`, { observed: next ?? current, expected: plan.to, presses });
    }
    if ((up && next > plan.to) || (!up && next < plan.to)) {
      throw new AppError('action_failed', `The field steps past ${showNumber(plan.to)}: it went from ${showNumber(current)} to ${showNumber(next)}.`, { observed: next, expected: plan.to, presses });
    }
    current = next;
  }
  await Promise.all([steppers?.up.dispose(), steppers?.down.dispose()]).catch(() => {});
  return { stepped: presses, from: showNumber(plan.from), value: showNumber(current), ...(plan.note ? { read: plan.note } : {}) };
}

/**
 * The one option a value names as a person reads the list: the same words in any case, or a
 * whole part of it ("Berlin" in "Europe/Berlin", "GB" in "United Kingdom (GB)"). Two options
 * that fit, or none: null (the caller lists the options).
 */
export function optionAsRead(labels: string[], value: string): string | null {
  const v = value.trim().toLowerCase();
  if (!v) return null;
  const same = labels.filter((l) => l.trim().toLowerCase() === v);
  if (same.length) return same.length === 1 ? same[0] : null;
  const parts = (l: string) => l.toLowerCase().split(/\s*[/(),|–—]\s*|\s+-\s+/).map((p) => p.trim()).filter(Boolean);
  const fits = labels.filter((l) => parts(l).includes(v));
  return fits.length === 1 ? fits[0] : null;
}
