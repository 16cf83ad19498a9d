import type { BrowserContext, Locator } from 'playwright-core';
import { AppError, focusOnlyChange, isAppError, type ActionBody } from '@ariadne/schema';

/** An action as the planners build it (ActionBody's fields, loosely typed). */
export interface FlowAction {
  action: string;
  ref?: string;
  description?: string;
  url?: string;
  value?: string | string[];
  text?: string;
  key?: string;
  by?: 'value' | 'label';
  textGone?: string;
  time?: number;
  direction?: 'up' | 'down' | 'left' | 'right' | 'top' | 'bottom';
  submit?: boolean;
  append?: boolean;
  accept?: boolean;
  promptText?: string;
  /** upload: the files to put in the file input. */
  files?: { name: string; mimeType?: string; contentBase64: string }[];
  /** drag: where to drop (a description, or a ref). */
  targetDescription?: string;
  targetRef?: string;
  /** scroll: pixels. */
  amount?: number;
  /** A parsed target (the rules planner): resolved in the page layer, then acted on by ref. */
  target?: DescribedTarget;
  /** Other wordings of the same target, tried in order with it ("user", then "email"). */
  alternatives?: DescribedTarget[];
  /** How long to look for the target (default: a short, honest miss). */
  waitMs?: number;
  double?: boolean;
}

import { Bridge, captureJpeg, fillField, inertClick, looksClickable, indexRefs, locate, markCapture, unchangedSinceCapture, performAction, quietly, readChecked, resolveDescription, resolveRef, snapshotView, toAppError, type ActionOutcome, type AriaNode, type DescribedTarget, type Located, type PageState, type ResolvedTarget, type TargetAction } from '@ariadne/page';
import type { AssertionRecord, CaseReport, CaseUsage, CheckSpec, LocatorRecord, RunEvent, StepError, StepParams, StepRecord } from './types.js';
import { describeCheck, evaluateCheck, expectCode } from './checks.js';
import { locatorFromCode, prepareVerifiedLocator } from './locators.js';
import type { PlanCase } from './plan.js';
import type { FlowMail } from './mail.js';
import type { FetchLike } from '@ariadne/egress';
import { PhaseClock } from './timing.js';

// The tools every planner acts through: snapshot, act by ref (or description), wait for
// the page to settle, assert, complete. They enforce the case's limits, check for
// cancellation, and record every step (what was asked, the action, the ref, a
// verified locator, timing, a screenshot, the error with diagnostics).

/** What a run needs from a live session: one browser context per role. */
export interface FlowSession {
  roles(): string[];
  run<T>(role: string, fn: (state: PageState) => Promise<T>): Promise<T>;
  context(role: string): BrowserContext;
  pageIds(role: string): string[];
}

/** Where screenshots and traces go; returns the artifact's name in the run. */
export interface ArtifactSink {
  put(name: string, data: Buffer, contentType: string): Promise<string>;
  /** A path a Playwright trace can be written to, and how to store it after. */
  tracePath(name: string): string;
}

export interface FlowLimits {
  maxStepsPerCase: number;
  maxTurnsPerCase: number;
  maxTokensPerCase: number;
  caseTimeoutMs: number;
  runTimeoutMs: number;
  maxTokensPerRun: number;
}

export interface FlowSettings {
  actionTimeoutMs: number;
  navigationTimeoutMs: number;
  snapshotTimeoutMs: number;
  describeWaitMs: number;
  allowedSchemes: string[];
  /** How long an assertion polls before it fails. */
  assertTimeoutMs: number;
  /** wait_for_stable: quiet period and bound. */
  stableQuietMs: number;
  stableTimeoutMs: number;
  /** Snapshot budget for model planners (tokens). */
  snapshotMaxTokens: number;
  screenshots: boolean;
  trace: boolean;
  limits: FlowLimits;
  /** Values of secret variables (PASSWORD, TOKEN, ...): recorded params show {{NAME}} instead. */
  secrets?: Record<string, string>;
  /** The run's inbox (absent when this service receives no mail: SMTP_PORT unset). */
  mail?: FlowMail | null;
  /** The fetch for requests a run asks for (http_request): the service's egress-checking one. */
  outboundFetch?: FetchLike;
}

/** {{EMAIL}}: the run's inbox address, filled in when a step uses it (not a plan variable). */
export const EMAIL_VAR = /\{\{\s*EMAIL\s*\}\}/g;

export const SECRET_NAME = /pass|secret|token|key|otp|pin/i;

/** The variables whose names look secret, plus those declared secret whatever their names (a suite's secrets). */
export function secretVariables(vars: Record<string, string> | undefined, secretNames: readonly string[] = []): Record<string, string> {
  return Object.fromEntries(Object.entries(vars ?? {}).filter(([k, v]) => (SECRET_NAME.test(k) || secretNames.includes(k)) && v.length > 0));
}

/** Replace secret values with {{NAME}} in recorded params. */
export function redact(params: StepParams, secrets: Record<string, string> | undefined): StepParams {
  const entries = Object.entries(secrets ?? {});
  if (!entries.length) return params;
  const hide = (v: string) => entries.reduce((acc, [name, value]) => acc.split(value).join(`{{${name}}}`), v);
  const out: StepParams = { ...params };
  if (typeof out.value === 'string') out.value = hide(out.value);
  else if (Array.isArray(out.value)) out.value = out.value.map(hide);
  if (typeof out.text === 'string') out.text = hide(out.text);
  if (typeof out.url === 'string') out.url = hide(out.url);
  return out;
}

/** Shorter secret values are not scrubbed from whole reports (they would garble ids and file names). */
export const SCRUB_MIN_LENGTH = 4;

/**
 * Every string in a report or event with secret values replaced by {{NAME}}: assertion
 * texts, error messages and generated expect() code carry substituted values too, not
 * only action params. Returns a copy; the input is left as it is.
 */
export function scrubSecrets<T>(value: T, secrets: Record<string, string> | undefined): T {
  const entries = Object.entries(secrets ?? {}).filter(([, v]) => v.length >= SCRUB_MIN_LENGTH).sort((a, b) => b[1].length - a[1].length);
  if (!entries.length) return value;
  const hide = (v: string) => entries.reduce((acc, [name, secret]) => (acc.includes(secret) ? acc.split(secret).join(`{{${name}}}`) : acc), v);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return hide(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** The reverse, for replays: {{NAME}} back to the value. */
export function unredact<T extends { value?: string | string[]; text?: string; url?: string }>(params: T, vars: Record<string, string> | undefined): T {
  const put = (v: string) => v.replace(/\{\{([A-Za-z_][\w.-]*)\}\}/g, (m, name: string) => vars?.[name] ?? m);
  const out = { ...params };
  if (typeof out.value === 'string') out.value = put(out.value);
  else if (Array.isArray(out.value)) out.value = out.value.map(put);
  if (typeof out.text === 'string') out.text = put(out.text);
  if (typeof out.url === 'string') out.url = put(out.url);
  return out;
}

export const DEFAULT_LIMITS: FlowLimits = {
  maxStepsPerCase: 60,
  maxTurnsPerCase: 40,
  maxTokensPerCase: 400_000,
  caseTimeoutMs: 180_000,
  runTimeoutMs: 900_000,
  maxTokensPerRun: 2_000_000,
};

export const DEFAULT_SETTINGS: FlowSettings = {
  actionTimeoutMs: 10_000,
  navigationTimeoutMs: 30_000,
  snapshotTimeoutMs: 15_000,
  describeWaitMs: 1000,
  allowedSchemes: ['http:', 'https:'],
  assertTimeoutMs: 5000,
  stableQuietMs: 300,
  stableTimeoutMs: 5000,
  snapshotMaxTokens: 6000,
  screenshots: true,
  trace: true,
  limits: DEFAULT_LIMITS,
};

/** Thrown inside a planner when the case must stop (limit, timeout, cancel). */
export class CaseStop extends Error {
  constructor(readonly reason: 'cancelled' | 'limit' | 'timeout', readonly error: StepError) {
    super(error.message);
  }
}

export interface SnapshotResult {
  role: string;
  pageId: string;
  url: string;
  title: string;
  text: string;
  tree: AriaNode[];
  truncated: boolean;
  tokens: number;
}

export interface ActResult {
  ok: boolean;
  step: StepRecord;
  outcome?: ActionOutcome;
  error?: StepError;
  /** What the action did to the page, when it was observed (act with look: true, or the page layer's own answer). */
  effect?: ObservedEffect;
}

/** What an action did to the page: the page layer's answer, and the snapshot diff taken after it. */
export interface ObservedEffect {
  changed: boolean;
  navigated: boolean;
  requests: number;
  added: number;
  removed: number;
  updated: number;
  /** One line for the report and the model: what changed, or that nothing did. */
  summary: string;
}



/**
 * "Activate Olu Ade", "Turn off Mara's access": a setting of what a row names. A box in a cell
 * of its own (no text there) takes the row's text as its name, but it selects the row; it is
 * not the row's setting. Ticking it would be a silent wrong pass: refused, asking for the
 * control by its own words.
 */
async function refuseRowSelector(located: Located, phrase: string): Promise<void> {
  const selectsRow = await located.locator.evaluate((el) => {
    const cell = el.closest('td, th, [role=cell], [role=gridcell]');
    return Boolean(cell && el.closest('tr, [role=row]') && !(cell.textContent ?? '').trim());
  }, undefined, { timeout: 2000 }).catch(() => false);
  if (!selectsRow) return;
  throw new AppError('target_not_found', `The only box found for "${phrase}" is its row's selection box (a cell of its own, no text): it selects the row; it is not a setting of "${phrase}".`, {
    understood: { phrase, role: 'switch' },
    refused: { ...(located.ref ? { ref: located.ref } : {}), role: located.role, name: located.name, why: 'row selection box' },
    hint: `Name the control in its own words ("the Active switch in ${phrase}'s row"), or "Select the row for ${phrase}" to tick the box.`,
  });
}

/**
 * The effect of an action from its outcome: the page layer's `effect` (when it reports one)
 * and the diff of the snapshot taken after it. Changed when either saw a change (requests
 * included); the focus moving alone is not a change of the page (it is said, though).
 */
export function observedEffect(o: ActionOutcome): ObservedEffect | undefined {
  const page = (o as { effect?: { changed?: boolean; requests?: number; navigated?: boolean; dom?: number; values?: boolean; focus?: boolean } }).effect;
  if (!page && !o.snapshot) return undefined;
  const d = o.snapshot?.diff;
  const added = d?.added.length ?? 0;
  const removed = d?.removed.length ?? 0;
  // The focus moving (a clicked button becomes [active]) is not the page reacting.
  const focusMoved = Boolean(page?.focus) || (d?.changed ?? []).some((c) => focusOnlyChange(c));
  const updated = (d?.changed ?? []).filter((c) => !focusOnlyChange(c)).length;
  // A new document: the full snapshot came back instead of a diff.
  const fresh = Boolean(o.snapshot && !d && o.navigated);
  const navigated = o.navigated || Boolean(page?.navigated);
  const requests = page?.requests ?? o.settle?.requests ?? 0;
  const dom = page?.dom ?? 0;
  // The page layer's own reading: mutations, edited values, requests; its "changed" alone
  // when it could not watch the document (dom unknown) and the focus is not why.
  const pageSaw = page ? requests > 0 || dom > 0 || Boolean(page.values) || (Boolean(page.changed) && page.dom === undefined && !page.focus) : false;
  const changed = navigated || fresh || added + removed + updated > 0 || Boolean(o.dialog) || Boolean(o.newPages?.length) || pageSaw;
  const parts: string[] = [];
  if (navigated) parts.push(`navigated to ${o.url}`);
  if (o.dialog) parts.push(`a ${o.dialog.type} dialog opened`);
  if (o.newPages?.length) parts.push(`${o.newPages.length} new tab(s) opened`);
  if (added) parts.push(`${added} element(s) added`);
  if (removed) parts.push(`${removed} removed`);
  if (updated) parts.push(`${updated} changed`);
  if (!added && !removed && !updated && !navigated && dom) parts.push(`${dom} DOM mutation(s) the snapshot does not show`);
  if (!added && !removed && !updated && page?.values) parts.push('a field\'s value changed');
  if (requests) parts.push(`${requests} request(s) sent`);
  const summary = changed
    ? `the page changed: ${parts.join(', ') || 'the page layer saw a change'}`
    : `no change seen: the page's snapshot is the same after the ${o.action}${focusMoved ? ' (only the focus moved)' : ''}, no navigation, no request`;
  return { changed, navigated, requests, added, removed, updated, summary };
}

/** How long a plan step looks for its target before an honest miss (issue 11: ≤ 1.5 s). */
export const FIND_WAIT_MS = 1000;

/**
 * Step pictures are at most this wide (a 1600 px viewport's are scaled to 0.64): a
 * capture's CPU is mostly compositing and encoding pixels (29 ms per full 1600 x 900
 * capture, 16 ms at half size), taken beside the next step on the same cores. Playwright's
 * own trace frames are at most 800 px. The screenshot route keeps full size.
 */
export const STEP_SHOT_MAX_WIDTH = 1024;

export interface AskContext {
  planStep?: number;
  asked: string;
  /** The part of a compound step this action serves ("press Enter"). */
  part?: string;
  /** When the plan step started (durations include what the planner did before acting). */
  startedAt?: number;
  /** Variable names whose values appear in this step's params. */
  secretParams?: string[];
}

/** What the element must be able to take, by action. */
function actionKind(action: string): TargetAction {
  switch (action) {
    case 'click': case 'fill': case 'type': case 'check': case 'uncheck': case 'select': case 'hover': case 'clear': case 'upload': case 'drag': case 'scroll': case 'press':
      return action;
    default:
      return 'any';
  }
}

const squash = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * After fill/type: the field holds the value (compared without case, spaces and
 * punctuation, so a mask that formats "5551234567" as "(555) 123-4567" still counts).
 * Answers the failure, or null.
 */
async function observeEffect(state: PageState, body: FlowAction, loc: Locator | undefined, wrote?: string): Promise<{ message: string; details: Record<string, unknown> } | null> {
  if (!loc || state.dialog) return null;
  if (body.action !== 'fill' && body.action !== 'type') return null;
  if (body.action === 'type' && body.submit) return null;
  // The page layer may write the value in the field's own form (a date as 2024-05-14, "three" as 3): that is what the field must hold.
  const want = wrote ?? String(body.action === 'fill' ? body.value ?? '' : body.text ?? '');
  // inputValue: one call in the page for a field; an editable element that is not one answers its text.
  const got = await loc.inputValue({ timeout: 3000 }).catch(() => loc.innerText({ timeout: 1000 })).catch(() => null);
  if (got === null) return null;
  if (squash(got) === squash(want) || (body.action === 'type' && squash(got).endsWith(squash(want)))) return null;
  // A date field shows 05/14/2024 and holds 2024-05-14.
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(got.trim());
  const us = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(want.trim());
  if (iso && us && Number(iso[1]) === Number(us[3]) && ((Number(iso[2]) === Number(us[1]) && Number(iso[3]) === Number(us[2])) || (Number(iso[2]) === Number(us[2]) && Number(iso[3]) === Number(us[1])))) return null;
  // A split input moves the focus box to box: the group holds the value, not its first box.
  if (body.action === 'type' && squash(want).startsWith(squash(got)) && got.length > 0) return null;
  return { message: `The field holds ${JSON.stringify(got)} after the ${body.action}, not ${JSON.stringify(want)}.`, details: { expected: want, observed: got } };
}

/** Pages whose new documents get the in-page bridge set up as soon as they load. */
const warming = new WeakSet<PageState>();

/**
 * A step on a repeated element (a card's "Add to cart") proves its locator through the
 * in-page bridge, whose first call on a document sets it up (an isolated world and its
 * script): done when each document of a run's page loads, in the background, so the step
 * does not wait for it.
 */
function warmBridgeOnLoad(state: PageState): void {
  if (warming.has(state)) return;
  warming.add(state);
  state.on('load', () => {
    if (!state.closed && !state.dialog) void Bridge.for(state).mainWorld().catch(() => {});
  });
}

export function errorOf(err: unknown): StepError {
  const e = isAppError(err) ? err : toAppError(err);
  return { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) };
}

export class CaseTools {
  private stepSeq = 0;
  completed = false;
  completedPassed = false;
  summary = '';
  /** Set while a replay hands a step to the planner: the steps it records are "healed". */
  healing = false;
  /** Usage the planner reports (model turns and tokens). */
  readonly usage: CaseUsage = { turns: 0, inputTokens: 0, outputTokens: 0 };
  private readonly lastSnapshotAt = new Map<string, number>();

  constructor(
    readonly planCase: PlanCase,
    readonly report: CaseReport,
    readonly session: FlowSession,
    readonly settings: FlowSettings,
    readonly signal: AbortSignal,
    private readonly emit: (e: RunEvent) => void,
    private readonly artifacts: ArtifactSink | null,
    /** Usage of the whole run so far (for the per-run token limit). */
    private readonly runUsage: { inputTokens: number; outputTokens: number },
    /** Which try of the case this is (retries): later tries name their screenshots apart. */
    readonly attempt = 1,
  ) {}

  get roles(): string[] {
    return this.session.roles();
  }

  /** Stop the case if it was cancelled, timed out or went over a limit. */
  checkpoint(): void {
    if (this.signal.aborted) {
      const reason = String((this.signal as AbortSignal & { reason?: unknown }).reason ?? 'cancelled');
      if (reason === 'case_timeout') throw new CaseStop('timeout', { code: 'timeout', message: `The case ran longer than ${this.settings.limits.caseTimeoutMs} ms.` });
      if (reason === 'run_timeout') throw new CaseStop('timeout', { code: 'timeout', message: `The run ran longer than ${this.settings.limits.runTimeoutMs} ms.` });
      throw new CaseStop('cancelled', { code: 'cancelled', message: 'The run was cancelled.' });
    }
    const l = this.settings.limits;
    if (this.report.steps.length >= l.maxStepsPerCase) {
      throw new CaseStop('limit', { code: 'limit_exceeded', message: `The case reached its limit of ${l.maxStepsPerCase} steps.`, details: { limit: 'steps', max: l.maxStepsPerCase } });
    }
    if (this.usage.turns >= l.maxTurnsPerCase) {
      throw new CaseStop('limit', { code: 'limit_exceeded', message: `The case reached its limit of ${l.maxTurnsPerCase} model turns.`, details: { limit: 'turns', max: l.maxTurnsPerCase } });
    }
    const tokens = this.usage.inputTokens + this.usage.outputTokens;
    if (tokens >= l.maxTokensPerCase) {
      throw new CaseStop('limit', { code: 'limit_exceeded', message: `The case used ${tokens} tokens, over its limit of ${l.maxTokensPerCase}.`, details: { limit: 'tokens', max: l.maxTokensPerCase } });
    }
    if (this.runUsage.inputTokens + this.runUsage.outputTokens >= l.maxTokensPerRun) {
      throw new CaseStop('limit', { code: 'limit_exceeded', message: `The run reached its limit of ${l.maxTokensPerRun} tokens.`, details: { limit: 'run_tokens', max: l.maxTokensPerRun } });
    }
  }

  /** A model turn happened: count it and its tokens. */
  addTurn(inputTokens: number, outputTokens: number): void {
    this.usage.turns++;
    this.usage.inputTokens += inputTokens;
    this.usage.outputTokens += outputTokens;
    this.runUsage.inputTokens += inputTokens;
    this.runUsage.outputTokens += outputTokens;
    this.emitInOrder({ type: 'turn', case: this.planCase.index, turn: this.usage.turns, inputTokens, outputTokens });
  }

  private checkRole(role: string): void {
    if (!this.session.roles().includes(role)) {
      throw new AppError('role_not_found', `This run has no role "${role}".`, { role, roles: this.session.roles() });
    }
  }

  async snapshot(role: string, maxTokens = this.settings.snapshotMaxTokens): Promise<SnapshotResult> {
    this.checkpoint();
    this.checkRole(role);
    return this.session.run(role, async (state) => {
      const view = await quietly(state.page, () => snapshotView(state, { format: 'yaml', maxTokens, timeoutMs: this.settings.snapshotTimeoutMs }));
      this.lastSnapshotAt.set(role, state.navEpoch);
      return {
        role,
        pageId: state.id,
        url: view.url,
        title: view.title,
        text: String(view.snapshot ?? ''),
        tree: state.lastSnapshot?.tree ?? [],
        truncated: view.truncated,
        tokens: view.tokens,
      };
    });
  }

  /** Has the role's page navigated to a new document since its last snapshot here? */
  async needsSnapshot(role: string): Promise<boolean> {
    const seen = this.lastSnapshotAt.get(role);
    if (seen === undefined) return true;
    return this.session.run(role, async (state) => state.navEpoch !== seen);
  }

  private newStep(ask: AskContext, role: string, action: string, params?: StepParams): StepRecord {
    return {
      ...(this.healing ? { healed: true } : {}),
      n: ++this.stepSeq,
      ...(ask.planStep !== undefined ? { planStep: ask.planStep } : {}),
      asked: ask.asked,
      role,
      action,
      ...(params && Object.keys(params).length ? { params } : {}),
      ...(ask.secretParams?.length ? { secretParams: ask.secretParams } : {}),
      ...(ask.part ? { part: ask.part } : {}),
      status: 'passed',
      startedAt: new Date(ask.startedAt ?? Date.now()).toISOString(),
      durationMs: 0,
    };
  }

  /**
   * Close a step. Its screenshot is off the step's path: the capture is requested now (the
   * page as the step left it) and written in the background; the step's event goes out
   * once its file is on disk, events staying in order. The loop drains both before the
   * case ends (drain()).
   */
  private async finishStep(step: StepRecord, state: PageState | null, started: number): Promise<void> {
    step.durationMs = Date.now() - started;
    let shot: Promise<void> | null = null;
    if (state) {
      step.url = state.page.url();
      const artifacts = this.artifacts;
      if (this.settings.screenshots && artifacts) {
        // A step without a screenshot says why (a dialog blocks capture; a slow or failed capture
        // is never silent).
        if (state.dialog || state.closed) step.screenshotSkipped = state.dialog ? 'dialog' : 'closed';
        else {
          const page = state.page;
          const prev = this.lastShot;
          // An assertion that found the page as the last capture left it shares that picture
          // (capture.ts says what counts as unchanged); one round trip instead of a capture.
          if (step.action === 'assert' && prev?.page === page && (await quietly(page, () => unchangedSinceCapture(page)))) {
            shot = prev.stored.then((stored) => {
              if (stored) {
                step.screenshot = stored;
                step.screenshotOf = prev.step;
              } else step.screenshotSkipped = 'failed';
            });
          } else {
            const name = `c${this.planCase.index}${this.attempt > 1 ? `-r${this.attempt}` : ''}-s${step.n}.jpg`;
            const stored = quietly(page, () => markCapture(page))
              .catch(() => {}) // unmarked: the next assertion takes its own picture
              .then(() => captureJpeg(page, { quality: 50, timeoutMs: 5000, maxWidth: STEP_SHOT_MAX_WIDTH }))
              .then((data) => artifacts.put(name, data, 'image/jpeg'))
              .then((ref): string | null => ref, () => null);
            this.lastShot = { page, step: step.n, stored };
            shot = stored.then((ref) => {
              if (ref) step.screenshot = ref;
              else step.screenshotSkipped = 'failed';
            });
          }
        }
      }
    }
    this.report.steps.push(step);
    this.emitInOrder({ type: 'step', case: this.planCase.index, step }, shot);
  }

  /** The last step screenshot taken: the page, the step, its stored name once written (null: failed). */
  private lastShot: { page: PageState['page']; step: number; stored: Promise<string | null> } | null = null;

  /** Events in the order they happened, each after what it waits for (a step's screenshot). */
  private tail: Promise<void> = Promise.resolve();

  private emitInOrder(e: RunEvent, after: Promise<void> | null = null): void {
    const prev = this.tail;
    this.tail = (after ? Promise.all([prev, after]) : prev).then(() => {
      try {
        this.emit(e);
      } catch {
        /* a listener's failure is not the run's */
      }
    });
  }

  /** Every screenshot written and every event sent: called before the case ends. */
  drain(): Promise<void> {
    return this.tail;
  }

  /** Record a step that never reached the page (a step the planner could not interpret). */
  async fail(role: string, ask: AskContext, error: StepError, action = 'interpret'): Promise<StepRecord> {
    const step = this.newStep(ask, role, action);
    step.status = 'failed';
    step.error = error;
    await this.finishStep(step, null, ask.startedAt ?? Date.now());
    return step;
  }

  /** The run's inbox, or null when the service receives no mail. */
  get mail(): FlowMail | null {
    return this.settings.mail ?? null;
  }

  /** Replaces {{EMAIL}} with the run's inbox address (creating the inbox on first use). */
  async expandEmail(text: string): Promise<string> {
    if (!text.match(EMAIL_VAR)) return text;
    if (!this.mail) throw new AppError('inbox_disabled', 'This step uses {{EMAIL}}, but this service receives no mail: the operator sets SMTP_PORT and INBOX_DOMAIN.', { setting: 'SMTP_PORT' });
    const address = await this.mail.address();
    return text.replace(EMAIL_VAR, address);
  }

  /**
   * A step that is not a plain page action (reading the inbox, entering a code, an HTTP
   * request): runs fn and records the step, with the error when fn throws. onPage: fn runs
   * in the role's tab queue and the step gets a screenshot like an action.
   */
  async record<T>(role: string, ask: AskContext, action: string, params: StepParams, fn: (state: PageState | null, step: StepRecord) => Promise<T>, opts: { onPage?: boolean } = {}): Promise<{ ok: boolean; step: StepRecord; result?: T; error?: StepError }> {
    this.checkpoint();
    this.checkRole(role);
    const step = this.newStep(ask, role, action, redact(params, this.settings.secrets));
    const started = Date.now();
    const body = async (state: PageState | null) => {
      try {
        const result = await this.raceAbort(fn(state, step));
        await this.finishStep(step, state, started);
        return { ok: true, step, result };
      } catch (err) {
        if (err instanceof CaseStop) throw err;
        step.status = 'failed';
        step.error = errorOf(err);
        await this.finishStep(step, state, started);
        return { ok: false, step, error: step.error };
      }
    };
    return opts.onPage ? this.session.run(role, (state) => body(state)) : body(null);
  }

  /** An assertion checked outside the page (an email arrived, an HTTP answer), recorded like any other. */
  async assertOutside(role: string, check: CheckSpec, ask: AskContext & { description?: string }, evaluate: () => Promise<{ passed: boolean; actual?: string }>): Promise<AssertionRecord> {
    this.checkpoint();
    this.checkRole(role);
    const step = this.newStep(ask, role, 'assert');
    const started = Date.now();
    const rec = newAssertion(role, check, ask);
    try {
      const out = await this.raceAbort(evaluate());
      rec.passed = out.passed;
      if (out.actual !== undefined) rec.actual = out.actual;
      rec.expect = expectCode(check);
      if (!out.passed) rec.error = { code: 'assertion_failed', message: `Expected ${describeCheck(check)}${out.actual ? `; ${out.actual}` : ''}.` };
    } catch (err) {
      if (err instanceof CaseStop) throw err;
      rec.error = errorOf(err);
    }
    return this.recordAssertion(step, rec, null, started);
  }

  /** One action, by ref (or description as a fallback), with its verified locator recorded first. */
  async act(role: string, body: FlowAction, ask: AskContext, extra: { healed?: boolean; locatorCode?: string; look?: boolean } = {}): Promise<ActResult> {
    this.checkpoint();
    this.checkRole(role);
    // {{EMAIL}} in what is typed or opened: the run's inbox address.
    for (const k of ['value', 'text', 'url'] as const) {
      const v = body[k];
      if (typeof v === 'string' && v.match(EMAIL_VAR)) {
        try {
          body = { ...body, [k]: await this.expandEmail(v) };
        } catch (err) {
          return { ok: false, step: await this.fail(role, ask, errorOf(err), body.action), error: errorOf(err) };
        }
      }
    }
    const params: StepParams = {};
    for (const k of ['url', 'value', 'text', 'key', 'by', 'textGone', 'time', 'direction', 'accept', 'promptText'] as const) {
      if (body[k] !== undefined) (params as Record<string, unknown>)[k] = body[k];
    }
    if (body.files?.length) params.files = body.files.map((f) => f.name);
    const step = this.newStep(ask, role, body.action, redact(params, this.settings.secrets));
    if (extra.healed) step.healed = true;
    const started = ask.startedAt ?? Date.now();
    if (body.key) step.keys = [body.key];
    const clock = new PhaseClock();
    return this.session.run(role, async (state) => {
      clock.lap('queue');
      warmBridgeOnLoad(state);
      const ctx = {
        actionTimeoutMs: this.settings.actionTimeoutMs,
        navigationTimeoutMs: this.settings.navigationTimeoutMs,
        describeWaitMs: this.settings.describeWaitMs,
        allowedSchemes: this.settings.allowedSchemes,
        listPageIds: () => this.session.pageIds(role),
        ...(clock.on ? { lap: (phase: string) => clock.lap(phase) } : {}),
      };
      let proof: { settle: () => Promise<LocatorRecord | null> } | null = null;
      try {
        let located: Located | undefined;
        if (body.target) {
          // One resolver for plans and REST descriptions: only an element that can take the action.
          // Resolution, the locator's facts and its proof are Ariadne's probing, not the test's
          // story: internal calls, left out of the trace and its DOM snapshots (quiet.ts).
          located = await quietly(state.page, () => locate(state, [body.target!, ...(body.alternatives ?? [])], { action: actionKind(body.action), waitMs: body.waitMs ?? FIND_WAIT_MS, description: ask.part ?? ask.asked, code: false }));
          step.target = { ...(located.role ? { role: located.role } : {}), ...(located.name ? { name: located.name } : {}), ...(located.ref ? { ref: located.ref } : {}), rung: located.resolvedBy.replace(/^description:/, ''), why: located.why };
          if (located.group && body.action === 'fill') {
            // A split input (one box per character): type into its first box, key by key.
            body = { ...body, action: 'type', text: String(body.value ?? '') };
            step.action = 'type';
            // Replays and the exported spec read the record: it says what was typed.
            step.params = redact({ text: String(body.text) }, this.settings.secrets);
          }
          if ((body.action === 'check' || body.action === 'uncheck') && body.target?.role === 'switch' && located.role === 'checkbox') await refuseRowSelector(located, body.target.phrase);
          if (located.ref) body = { ...body, ref: located.ref };
          clock.lap('resolve');
        }
        let byRef: ResolvedTarget | undefined;
        if (body.ref) {
          step.ref = body.ref;
          // One round trip before the action: the ref resolves (an unknown ref answers at
          // once) and the facts for its locator are gathered; the locator's proof is sent
          // now and read after the action (locators.ts).
          const ref = body.ref;
          proof = await quietly(state.page, () => prepareVerifiedLocator(state, ref));
          if (!['navigate', 'wait_for', 'handle_dialog'].includes(body.action)) byRef = { locator: state.page.locator(`aria-ref=${body.ref}`), ref: body.ref, resolvedBy: 'ref' };
          clock.lap('locator');
        }
        // A cancel does not wait for a long action (a 20 s wait) to end: ending the
        // session afterwards stops it in the browser.
        const { target: _t, alternatives: _a, waitMs: _w, ...plain } = body;
        // look: the snapshot after the action comes back as a diff against the last one (a
        // full snapshot on a new document), which is what a model planner is told.
        const look = extra.look ? { snapshot: 'diff', maxTokens: this.settings.snapshotMaxTokens } : { snapshot: 'none' };
        const outcome = await this.raceAbort(performAction(state, { ...plain, ...look } as unknown as ActionBody, ctx, located && !located.ref ? located : byRef));
        if (extra.look && outcome.snapshot && !state.dialog) this.lastSnapshotAt.set(role, state.navEpoch);
        const seen = observedEffect(outcome);
        if (seen && !seen.changed) step.effect = seen.summary;
        // A switch or box already in the state asked: left alone, and said so.
        const kept = outcome.result as { changed?: boolean; checked?: boolean; switch?: boolean } | undefined;
        if ((body.action === 'check' || body.action === 'uncheck') && kept?.changed === false) step.effect = `already ${kept.switch ? (kept.checked ? 'on' : 'off') : kept.checked ? 'checked' : 'unchecked'}: left as it was`;
        if (located) {
          // A click the words led onto text, with nothing reacting: a landmark, not the control.
          const role = located.role ?? (located.resolvedBy === 'description:text' ? 'text' : undefined);
          const inert = inertClick(body.action, { role, name: located.name, static: located.static }, outcome.effect, { dialog: Boolean(outcome.dialog), newPages: outcome.newPages?.length ?? 0 });
          if (inert && !(await looksClickable(located.locator))) throw new AppError('no_effect', inert, { target: { ...(located.ref ? { ref: located.ref } : {}), ...(role ? { role } : {}), ...(located.name ? { name: located.name } : {}) } });
        }
        const proven = proof ? await proof.settle() : null;
        clock.lap('proof');
        if (proven) step.locator = proven;
        if (!step.locator && located?.code) step.locator = { code: `page.${located.code}`, verified: true, strategy: located.resolvedBy, source: 'ladder' };
        if (outcome.target && !step.target && outcome.target.resolvedBy !== 'ref') {
          step.target = { ...(outcome.target.role ? { role: outcome.target.role } : {}), ...(outcome.target.name ? { name: outcome.target.name } : {}), ...(outcome.target.ref ? { ref: outcome.target.ref } : {}), rung: outcome.target.resolvedBy.replace(/^description:/, ''), why: outcome.target.why ?? '' };
        }
        // The step's stated effect, when it can be observed: the value is in the field.
        const wrote = outcome.result as { filled?: string; typed?: string; stepped?: number; value?: string } | undefined;
        const written = wrote?.filled ?? wrote?.typed ?? (wrote?.stepped !== undefined ? wrote.value : undefined);
        const effect = await quietly(state.page, () => observeEffect(state, body, located?.locator ?? (body.ref ? state.page.locator(`aria-ref=${body.ref}`) : undefined), written));
        clock.lap('effect');
        if (effect) throw new AppError('effect_not_observed' as never, effect.message, effect.details);
        // A box the app re-rendered on change: find it again by the same words and read it.
        const res = outcome.result as { replaced?: boolean } | undefined;
        if ((body.action === 'check' || body.action === 'uncheck') && res?.replaced && body.target) {
          const again = await locate(state, [body.target, ...(body.alternatives ?? [])], { action: 'check', waitMs: 500, description: ask.part ?? ask.asked }).catch(() => null);
          const now = again ? await readChecked(again.locator, 1000) : null;
          if (now === (body.action === 'uncheck')) {
            throw new AppError('effect_not_observed' as never, `The box is still ${now ? 'checked' : 'unchecked'} after the ${body.action}.`, { expected: body.action === 'check' ? 'checked' : 'unchecked', observed: now ? 'checked' : 'unchecked' });
          }
          step.effect = now === null ? 'the box was re-rendered and could not be found again to read its state' : `re-read after re-render: ${now ? 'checked' : 'unchecked'}`;
        }
        if (!step.locator && outcome.target?.locator) {
          step.locator = { code: `page.${outcome.target.locator}`, verified: true, strategy: outcome.target.resolvedBy, source: 'ladder' };
        }
        if (!step.locator && extra.locatorCode) step.locator = { code: extra.locatorCode, verified: true, strategy: 'recorded', source: 'none' };
        await this.finishStep(step, state, started);
        clock.lap('record');
        clock.done(step.action, step.asked);
        return { ok: true, step, outcome, ...(seen ? { effect: seen } : {}) };
      } catch (err) {
        if (err instanceof CaseStop) throw err;
        step.status = 'failed';
        step.error = errorOf(err);
        // A failed action still says which element it was aimed at.
        if (!step.locator && proof) step.locator = (await proof.settle()) ?? undefined;
        if (!step.locator) delete step.locator;
        await this.finishStep(step, state, started);
        return { ok: false, step, error: step.error };
      }
    });
  }

  private raceAbort<T>(p: Promise<T>): Promise<T> {
    if (this.signal.aborted) {
      p.catch(() => {});
      return Promise.reject(this.stopError());
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        p.catch(() => {});
        reject(this.stopError());
      };
      this.signal.addEventListener('abort', onAbort, { once: true });
      p.then(resolve, reject).finally(() => this.signal.removeEventListener('abort', onAbort));
    });
  }

  private stopError(): CaseStop {
    try {
      this.checkpoint();
    } catch (err) {
      if (err instanceof CaseStop) return err;
    }
    return new CaseStop('cancelled', { code: 'cancelled', message: 'The run was cancelled.' });
  }

  /** Act on an already built locator (replays): the locator was verified when it was recorded. */
  async actOnLocator(role: string, action: FlowAction, code: string, resolve: (state: PageState) => Locator, ask: AskContext): Promise<ActResult> {
    this.checkpoint();
    const params: StepParams = {};
    for (const k of ['url', 'value', 'text', 'key', 'by'] as const) if (action[k] !== undefined) (params as Record<string, unknown>)[k] = action[k];
    const step = this.newStep(ask, role, action.action, redact(params, this.settings.secrets));
    step.locator = { code, verified: true, strategy: 'recorded', source: 'none' };
    const started = Date.now();
    return this.session.run(role, async (state) => {
      try {
        const loc = resolve(state);
        const t = this.settings.actionTimeoutMs;
        const run = async () => {
          switch (action.action) {
            case 'click': await loc.click({ timeout: t }); break;
            case 'hover': await loc.hover({ timeout: t }); break;
            case 'fill': await fillField(loc, String(action.value ?? ''), t); break;
            case 'type': await loc.fill('', { timeout: t }); await loc.pressSequentially(action.text ?? '', { timeout: t }); break;
            case 'select': {
              const v = Array.isArray(action.value) ? action.value : [String(action.value ?? '')];
              await loc.selectOption(action.by === 'label' ? v.map((label) => ({ label })) : action.by === 'value' ? v.map((value) => ({ value })) : v, { timeout: t });
              break;
            }
            case 'check': await loc.check({ timeout: t }); break;
            case 'uncheck': await loc.uncheck({ timeout: t }); break;
            case 'press': await loc.press(action.key ?? 'Enter', { timeout: t }); break;
            default: throw new AppError('invalid_request', `Cannot replay ${action.action} on a locator.`);
          }
        };
        // A dialog the action opens blocks the page: answer at once (as performAction does);
        // the next recorded step handles it.
        let onDialog: () => void = () => {};
        const opened = new Promise<'dialog'>((r) => { onDialog = () => r('dialog'); state.once('dialog', onDialog); });
        const p = run();
        try {
          if ((await Promise.race([p.then(() => 'done' as const), opened])) === 'dialog') p.catch(() => {});
        } finally {
          state.off('dialog', onDialog);
        }
        await this.finishStep(step, state, started);
        return { ok: true, step };
      } catch (err) {
        step.status = 'failed';
        step.error = errorOf(err);
        await this.finishStep(step, state, started);
        return { ok: false, step, error: step.error };
      }
    });
  }

  /**
   * Wait until the page stops changing: one in-page MutationObserver promise (child
   * lists, text AND attributes), resolved after quietMs without a mutation or at
   * timeoutMs, whichever first; then, within what is left, the network going idle.
   */
  async waitForStable(role: string, ask: AskContext, opts: { quietMs?: number; timeoutMs?: number; record?: boolean } = {}): Promise<{ stable: boolean; mutations: number; waitedMs: number; networkIdle: boolean }> {
    this.checkpoint();
    this.checkRole(role);
    const quietMs = Math.min(opts.quietMs ?? this.settings.stableQuietMs, 10_000);
    const timeoutMs = Math.min(opts.timeoutMs ?? this.settings.stableTimeoutMs, 30_000);
    const step = this.newStep(ask, role, 'wait_for_stable');
    const started = Date.now();
    return this.session.run(role, async (state) => {
      const page = state.page;
      let result = { stable: false, mutations: 0, waitedMs: 0 };
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          result = await page.evaluate(({ quiet, bound }) => new Promise<{ stable: boolean; mutations: number; waitedMs: number }>((resolve) => {
            const start = performance.now();
            let last = start;
            let mutations = 0;
            const obs = new MutationObserver((records) => { mutations += records.length; last = performance.now(); });
            obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
            const tick = () => {
              const now = performance.now();
              if (now - last >= quiet || now - start >= bound) {
                obs.disconnect();
                resolve({ stable: now - last >= quiet, mutations, waitedMs: Math.round(now - start) });
              } else setTimeout(tick, Math.max(10, Math.min(50, quiet - (now - last))));
            };
            setTimeout(tick, quiet);
          }), { quiet: quietMs, bound: timeoutMs });
          break;
        } catch {
          // The document was replaced mid-wait (a navigation): wait for it, then observe the new one.
          await page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => {});
        }
      }
      const left = Math.max(200, timeoutMs - (Date.now() - started));
      const networkIdle = await page.waitForLoadState('networkidle', { timeout: left }).then(() => true, () => false);
      const out = { ...result, networkIdle };
      if (opts.record !== false) {
        step.params = { time: out.waitedMs };
        await this.finishStep(step, null, started);
        step.url = page.url();
      }
      return out;
    });
  }

  /** Resolve an element for a check: ref from the last snapshot, else the description ladder. */
  private async checkTarget(state: PageState, check: CheckSpec, locatorCode?: string): Promise<{ loc: Locator; record: LocatorRecord | undefined; ref?: string }> {
    const c = check as { ref?: string; description?: string };
    if (locatorCode) {
      // A replayed check: the locator recorded (and verified) when the run was made.
      return { loc: locatorFromCode(state.page, locatorCode), record: { code: locatorCode, verified: true, strategy: 'recorded', source: 'none' } };
    }
    if (c.ref) {
      // Throws at once when the ref does not resolve; nothing acts here, so the proof is read now.
      const rec = await (await prepareVerifiedLocator(state, c.ref)).settle();
      return { loc: state.page.locator(`aria-ref=${c.ref}`), record: rec ?? undefined, ref: c.ref };
    }
    if (c.description) {
      const t = await resolveDescription(state, c.description, { waitMs: this.settings.describeWaitMs });
      return { loc: t.locator, record: t.code ? { code: `page.${t.code}`, verified: true, strategy: t.resolvedBy, source: 'ladder' } : undefined };
    }
    throw new AppError('invalid_request', 'An element check needs a ref (or a description).', { field: 'ref' });
  }

  /** Is a JS dialog (alert, confirm, prompt) waiting for an answer on the role's page? */
  async hasDialog(role: string): Promise<boolean> {
    this.checkRole(role);
    return this.session.run(role, async (state) => Boolean(state.dialog));
  }

  /**
   * Resolve targets without acting (element checks, an optional Add button): the ref, or
   * the error (a miss, an ambiguity) for the planner to report.
   */
  async find(role: string, specs: DescribedTarget[], action: TargetAction = 'any', waitMs = 0): Promise<{ ref: string; located: Located } | { error: StepError }> {
    this.checkpoint();
    this.checkRole(role);
    const clock = new PhaseClock();
    return this.session.run(role, async (state) => {
      try {
        const located = await quietly(state.page, () => locate(state, specs, { action, waitMs, description: specs[0]?.phrase ?? '' }));
        clock.lap('resolve');
        clock.done('find', specs[0]?.phrase ?? '');
        if (!located.ref) return { error: { code: 'target_not_found', message: `"${specs[0]?.phrase}" resolved to an element without a snapshot ref.` } };
        return { ref: located.ref, located };
      } catch (err) {
        return { error: errorOf(err) };
      }
    });
  }

  /** The ref of the target, or null when there is none (or several). */
  async findQuietly(role: string, specs: DescribedTarget[], action: TargetAction = 'click', waitMs = 0): Promise<string | null> {
    const r = await this.find(role, specs, action, waitMs);
    return 'ref' in r ? r.ref : null;
  }

  /** After closing a modal: no dialog landmark is left open (polled briefly); a failed step otherwise. */
  async expectNoDialogLandmark(role: string, ask: AskContext): Promise<boolean> {
    const started = Date.now();
    const open = await this.session.run(role, async (state) => {
      const dialogs = state.page.locator('dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]').filter({ visible: true });
      const deadline = Date.now() + 1500;
      let n = await dialogs.count().catch(() => 0);
      while (n > 0 && Date.now() < deadline) {
        await state.page.waitForTimeout(100);
        n = await dialogs.count().catch(() => 0);
      }
      return n;
    });
    if (open === 0) return true;
    await this.fail(role, { ...ask, startedAt: started }, { code: 'effect_not_observed', message: `The dialog is still open after the close control was clicked (${open} visible).`, details: { observed: `${open} open dialog(s)` } }, 'observe');
    return false;
  }

  /** Evaluate a check on the live page and record it (as a step and as an assertion). */
  async assert(role: string, check: CheckSpec, ask: AskContext & { description?: string; locatorCode?: string }): Promise<AssertionRecord> {
    this.checkpoint();
    this.checkRole(role);
    // {{EMAIL}} in an expected text or value: the run's inbox address.
    for (const k of ['text', 'value'] as const) {
      const v = (check as Record<string, unknown>)[k];
      if (typeof v === 'string' && v.match(EMAIL_VAR)) check = { ...check, [k]: await this.expandEmail(v).catch(() => v) } as CheckSpec;
    }
    const step = this.newStep(ask, role, 'assert');
    const started = Date.now();
    const clock = new PhaseClock();
    return this.session.run(role, async (state) => {
      clock.lap('queue');
      const rec = newAssertion(role, check, ask);
      try {
        let loc: Locator | null = null;
        if (check.type.startsWith('element_')) {
          const t = await quietly(state.page, () => this.checkTarget(state, check, ask.locatorCode));
          loc = t.loc;
          if (t.record) rec.locator = t.record;
          if (t.ref) step.ref = t.ref;
          clock.lap('locator');
        }
        const out = await evaluateCheck(state.page, check, loc, this.settings.assertTimeoutMs, this.signal);
        clock.lap('check');
        rec.passed = out.passed;
        if (out.actual !== undefined) rec.actual = out.actual;
        if (out.evidence) rec.evidence = out.evidence;
        if (!check.type.startsWith('element_') || rec.locator) rec.expect = expectCode(check, rec.locator?.code);
        if (!out.passed) rec.error = { code: 'assertion_failed', message: `Expected ${describeCheck(check)}${out.actual ? `; ${out.actual}` : ''}.` };
      } catch (err) {
        rec.passed = false;
        rec.error = errorOf(err);
      }
      const out = await this.recordAssertion(step, rec, state, started);
      clock.lap('record');
      clock.done('assert', step.asked);
      return out;
    });
  }

  /** Close an assertion (page or outside): its step, the report, the screenshot when on a page. */
  private async recordAssertion(step: StepRecord, rec: AssertionRecord, state: PageState | null, started: number): Promise<AssertionRecord> {
    rec.durationMs = Date.now() - started;
    step.status = rec.passed ? 'passed' : 'failed';
    if (rec.error) step.error = rec.error;
    if (rec.locator) step.locator = rec.locator;
    step.assertion = rec;
    this.report.assertions.push(rec);
    await this.finishStep(step, state, started);
    return rec;
  }

  complete(passed: boolean, summary: string): void {
    // The first "complete" stands; and it never turns a failed assertion into a pass
    // (the loop decides the status from the assertions).
    if (this.completed) return;
    this.completed = true;
    this.completedPassed = passed;
    this.summary = summary;
  }
}

/** A new assertion record, not yet evaluated. */
function newAssertion(role: string, check: CheckSpec, ask: AskContext & { description?: string }): AssertionRecord {
  return {
    ...(ask.planStep !== undefined ? { planStep: ask.planStep } : {}),
    description: ask.description ?? describeCheck(check),
    role,
    check,
    passed: false,
    durationMs: 0,
  };
}
