import { findRef, indexRefs } from '@ariadne/page';

const ACTIONABLE = new Set(['button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'option', 'spinbutton', 'slider']);
import { AppError, diffInWords, type DiffLike } from '@ariadne/schema';
import type { PlanCase, PlanStep } from '../plan.js';
import { enterOneTimeCode } from '../one-time-code.js';
import { assertEmailReceived, assertHttp, currentUrl, httpStep, nextCode, openEmailLink, useNewEmail } from '../mail-steps.js';
import type { CheckSpec } from '../types.js';
import { CaseStop, errorOf, type AskContext, type CaseTools, type FlowAction } from '../tools.js';
import type { Planner } from './planner.js';
import { egressDenial, deniedErrorFrom } from '@ariadne/egress';

// The shared loop of the model planners (Anthropic, OpenAI-compatible): the model gets
// a small tool set and the case, and acts on refs from its last snapshot. The rules of
// seed 004 are enforced here, not only asked for: an action on a page the model has
// not snapshotted since it navigated, on a ref its last snapshot does not have, or
// right after a failure without a fresh snapshot, is refused with a hint (not run).
// Misses come back with the diagnostics the page layer collects. Snapshots sent to the
// model are budgeted. Assertions are evaluated by the service, never taken on trust.

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed arguments, or null when they were not valid JSON. */
  args: Record<string, unknown> | null;
  rawArgs?: string;
}

export interface TurnResult {
  calls: ToolCall[];
  text: string;
  inputTokens: number;
  outputTokens: number;
  /** The model declined to go on (OpenAI's `refusal`, Anthropic's stop_reason "refusal"). */
  refusal?: string;
}

export interface ToolResult {
  id: string;
  name: string;
  content: string;
  isError: boolean;
  /** The result holds a whole snapshot of this role (older ones get left out). */
  snapshotOf?: string;
}

export interface ToolDef {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

const ROLE_ARG = { type: 'string', description: 'Role (browser context) to act in; default: the step\'s role.' };
const STEP_ARG = { type: 'integer', minimum: 1, description: 'Number of the plan step this serves.' };
const REF_ARG = { type: 'string', description: 'A ref from your last snapshot (or a later action\'s changes), e.g. e12.' };

export const TOOLS: ToolDef[] = [
  {
    name: 'snapshot',
    description: 'Accessibility snapshot of the role\'s page (YAML, elements carry [ref=eN]; a name in [inferred=...] is one a person would read where the element has no accessible name; [type=date], [multiline] tell the kind of field). Call it first on every new page and after any failed action; act only on refs from your LAST snapshot. After each action you get only what changed, not a new snapshot: call snapshot when you need the whole page again.',
    parameters: { type: 'object', properties: { role: ROLE_ARG }, additionalProperties: false },
  },
  {
    name: 'navigate',
    description: 'Open a URL (absolute, or relative to the current page).',
    parameters: { type: 'object', properties: { url: { type: 'string' }, role: ROLE_ARG, step: STEP_ARG }, required: ['url'], additionalProperties: false },
  },
  {
    name: 'click',
    description: 'Click the element with this ref (links, buttons, icons, clickable words). The answer says what changed on the page.',
    parameters: { type: 'object', properties: { ref: REF_ARG, double: { type: 'boolean', description: 'Double-click.' }, role: ROLE_ARG, step: STEP_ARG }, required: ['ref'], additionalProperties: false },
  },
  {
    name: 'type',
    description: 'Replace the text of a field. submit: true presses Enter after (the answer says whether the page took it). keyByKey: true types one key at a time into the first box of a split input (one-time codes), letting the page move the focus.',
    parameters: { type: 'object', properties: { ref: REF_ARG, text: { type: 'string' }, keyByKey: { type: 'boolean' }, submit: { type: 'boolean', description: 'Press Enter after.' }, role: ROLE_ARG, step: STEP_ARG }, required: ['ref', 'text'], additionalProperties: false },
  },
  {
    name: 'select',
    description: 'Choose an option in a select element or listbox: by its visible label (default) or its value.',
    parameters: { type: 'object', properties: { ref: REF_ARG, value: { type: 'string', description: 'The option\'s label (or value with by: "value").' }, by: { type: 'string', enum: ['label', 'value'] }, role: ROLE_ARG, step: STEP_ARG }, required: ['ref', 'value'], additionalProperties: false },
  },
  {
    name: 'check',
    description: 'Tick a checkbox, radio button or switch (read back after: fails if it did not take).',
    parameters: { type: 'object', properties: { ref: REF_ARG, role: ROLE_ARG, step: STEP_ARG }, required: ['ref'], additionalProperties: false },
  },
  {
    name: 'uncheck',
    description: 'Untick a checkbox or switch (read back after).',
    parameters: { type: 'object', properties: { ref: REF_ARG, role: ROLE_ARG, step: STEP_ARG }, required: ['ref'], additionalProperties: false },
  },
  {
    name: 'hover',
    description: 'Move the mouse over the element (reveals row actions, menus, tooltips). The answer lists what appeared.',
    parameters: { type: 'object', properties: { ref: REF_ARG, role: ROLE_ARG, step: STEP_ARG }, required: ['ref'], additionalProperties: false },
  },
  {
    name: 'drag',
    description: 'Drag the element with ref and drop it on the element with targetRef.',
    parameters: { type: 'object', properties: { ref: REF_ARG, targetRef: { type: 'string', description: 'Where to drop: a ref from your last snapshot.' }, role: ROLE_ARG, step: STEP_ARG }, required: ['ref', 'targetRef'], additionalProperties: false },
  },
  {
    name: 'upload',
    description: 'Put files in a file input (ref): each file has a name and its text content (or contentBase64 for binary).',
    parameters: {
      type: 'object',
      properties: {
        ref: REF_ARG,
        files: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'object', properties: { name: { type: 'string' }, content: { type: 'string' }, contentBase64: { type: 'string' }, mimeType: { type: 'string' } }, required: ['name'] } },
        role: ROLE_ARG,
        step: STEP_ARG,
      },
      required: ['ref', 'files'],
      additionalProperties: false,
    },
  },
  {
    name: 'scroll',
    description: 'Scroll the page (no ref) or a scrollable element (ref): direction up, down, left, right, top or bottom; amount in pixels (default 600).',
    parameters: { type: 'object', properties: { ref: REF_ARG, direction: { type: 'string', enum: ['up', 'down', 'left', 'right', 'top', 'bottom'] }, amount: { type: 'integer', minimum: 1, maximum: 100000 }, role: ROLE_ARG, step: STEP_ARG }, required: ['direction'], additionalProperties: false },
  },
  {
    name: 'press',
    description: 'Press a key (Enter, Tab, Escape, ArrowDown, Control+A ...) on a ref, or on the page (no ref: whatever has the focus).',
    parameters: { type: 'object', properties: { key: { type: 'string' }, ref: REF_ARG, role: ROLE_ARG, step: STEP_ARG }, required: ['key'], additionalProperties: false },
  },
  {
    name: 'back',
    description: 'Go back one page in the tab\'s history (the browser\'s Back button).',
    parameters: { type: 'object', properties: { role: ROLE_ARG, step: STEP_ARG }, additionalProperties: false },
  },
  {
    name: 'handle_dialog',
    description: 'Accept or dismiss the alert/confirm/prompt dialog an action opened (the page is blocked until you do).',
    parameters: { type: 'object', properties: { accept: { type: 'boolean' }, promptText: { type: 'string' }, role: ROLE_ARG, step: STEP_ARG }, required: ['accept'], additionalProperties: false },
  },
  {
    name: 'wait_for_stable',
    description: 'Wait until the page stops changing (no DOM mutation for quietMs, bounded) and the network is idle.',
    parameters: { type: 'object', properties: { quietMs: { type: 'integer', minimum: 50, maximum: 10000 }, timeoutMs: { type: 'integer', minimum: 100, maximum: 30000 }, role: ROLE_ARG, step: STEP_ARG }, additionalProperties: false },
  },
  {
    name: 'assert',
    description: 'Record an assertion for a plan step; the service checks it on the live page. type: text_visible | text_hidden (text), url_contains | url_is (value), title_contains (value), element_contains (ref, text), element_checked | element_unchecked (ref), element_value (ref, value). Every Verify/Check/Assert/Confirm/Ensure step needs one.',
    parameters: {
      type: 'object',
      properties: {
        step: STEP_ARG,
        type: { type: 'string', enum: ['text_visible', 'text_hidden', 'url_contains', 'url_is', 'title_contains', 'element_contains', 'element_checked', 'element_unchecked', 'element_value', 'email_received'] },
        text: { type: 'string' },
        value: { type: 'string' },
        ref: { type: 'string' },
        role: ROLE_ARG,
      },
      required: ['step', 'type'],
      additionalProperties: false,
    },
  },
  {
    name: 'create_temp_email',
    description: 'The run\'s disposable email address (created on first call, the same for the whole run; also written {{EMAIL}} in the plan). Type it into sign-up forms.',
    parameters: { type: 'object', properties: { role: ROLE_ARG, step: STEP_ARG }, additionalProperties: false },
  },
  {
    name: 'wait_for_verification_code',
    description: 'Wait (up to 30 s) for the next unread email and return the verification code found in it, with the rule that found it. Enter it with type (keyByKey: true for a split one-box-per-digit input).',
    parameters: { type: 'object', properties: { role: ROLE_ARG, step: STEP_ARG }, additionalProperties: false },
  },
  {
    name: 'check_email_inbox',
    description: 'List the emails the run\'s inbox received (from, subject, code, link), optionally waiting up to waitSeconds for one matching subject/from.',
    parameters: { type: 'object', properties: { subject: { type: 'string' }, from: { type: 'string' }, waitSeconds: { type: 'integer', minimum: 0, maximum: 60 }, role: ROLE_ARG, step: STEP_ARG }, additionalProperties: false },
  },
  {
    name: 'open_email_link',
    description: 'Open the confirmation (or magic sign-in) link of the next unread email in the role\'s tab. Snapshot afterwards.',
    parameters: { type: 'object', properties: { role: ROLE_ARG, step: STEP_ARG }, additionalProperties: false },
  },
  {
    name: 'http_request',
    description: 'Send an HTTP request from the service (check an API or that a webhook fired); relative URLs resolve against the role\'s page. With expectStatus/expectText and step, it records an assertion for that step.',
    parameters: { type: 'object', properties: { method: { type: 'string' }, url: { type: 'string' }, body: { type: 'string' }, expectStatus: { type: 'integer', minimum: 100, maximum: 599 }, expectText: { type: 'string' }, role: ROLE_ARG, step: STEP_ARG }, required: ['method', 'url'], additionalProperties: false },
  },
  {
    name: 'complete_case',
    description: 'End the case: passed true when every step was done and asserted, false otherwise, with a one-line summary.',
    parameters: { type: 'object', properties: { passed: { type: 'boolean' }, summary: { type: 'string' } }, required: ['passed', 'summary'], additionalProperties: false },
  },
];

export const SYSTEM_PROMPT = [
  'You run one test case of a plain-English plan in a real browser through tools.',
  'Rules:',
  '1. Call snapshot before acting on a page you have not seen, and act only on [ref=eN] ids from your LAST snapshot of that role (or from the changes an action answered since). Never invent refs or selectors.',
  '1b. Each action answers what it changed on the page (added, removed, changed elements with their refs and text). "no change seen" means the action probably did not work: look again (snapshot) before going on; never assume it worked.',
  '2. After a failed action, call snapshot again for fresh refs; do not retry with a reworded guess.',
  '3. Pass "step" (the plan step number) with every action and assertion.',
  '4. Every step marked MANDATORY needs an assert call that checks it; the service evaluates it on the page.',
  '5. When all steps are done (or the case cannot go on), call complete_case once.',
  '6. Split one-time-code inputs (one box per digit): type the whole code into the first box with keyByKey: true.',
  '7. Sign-up flows: create_temp_email gives the run\'s address ({{EMAIL}} in the plan); wait_for_verification_code reads the code from the next email; open_email_link opens its link.',
].join('\n');

export function casePrompt(c: PlanCase, roles: string[]): string {
  const lines = [`Case ${c.index}: ${c.name}`, `Roles (browser contexts): ${roles.join(', ')}.`, 'Steps:'];
  for (const s of c.steps) lines.push(`${s.index}. [role ${s.role}]${s.mandatory ? ' MANDATORY' : ''} ${s.resolved}`);
  lines.push('Start with snapshot.');
  return lines.join('\n');
}

/** The name a person reads: the accessible name, else the page layer's inferred one (surface issue). */
function personName(n: { name?: string }): string {
  return n.name || (n as { inferredName?: string }).inferredName || '';
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Check a call's arguments against its tool: a bad call is answered with an error, never run. */
export function validateArgs(call: ToolCall): string | null {
  const def = TOOLS.find((t) => t.name === call.name);
  if (!def) return `Unknown tool "${call.name}". Tools: ${TOOLS.map((t) => t.name).join(', ')}.`;
  if (!call.args) return `The arguments of ${call.name} are not valid JSON (${(call.rawArgs ?? '').slice(0, 200)}). Send a JSON object.`;
  const schema = def.parameters as { properties: Record<string, { type: string; enum?: string[] }>; required?: string[] };
  for (const r of schema.required ?? []) if (call.args[r] === undefined) return `${call.name} needs "${r}".`;
  for (const [k, v] of Object.entries(call.args)) {
    const p = schema.properties[k];
    if (!p) return `${call.name} has no argument "${k}".`;
    const t = p.type === 'integer' ? 'number' : p.type;
    if (t === 'array' ? !Array.isArray(v) : v !== null && (typeof v !== t || (t === 'object' && Array.isArray(v)))) return `${call.name}.${k} must be ${p.type === 'array' || p.type === 'integer' ? 'an' : 'a'} ${p.type}.`;
    if (p.enum && !p.enum.includes(String(v))) return `${call.name}.${k} must be one of ${p.enum.join(', ')}.`;
  }
  return null;
}

/** How much of an answer that is not a planner reply may be quoted in a report. */
export const EXCERPT_CHARS = 120;

/** A short, labelled excerpt of untrusted model-API output (never the whole answer). */
export function untrustedExcerpt(v: unknown): string {
  const text = typeof v === 'string' ? v : (() => { try { return JSON.stringify(v); } catch { return String(v); } })();
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

export function notAPlannerReply(expected: string, answer: unknown): AppError {
  return new AppError('model_error', `The model API answer is not ${expected}.`, {
    untrustedExcerpt: `model API answer, first ${EXCERPT_CHARS} characters, not a valid reply: ${untrustedExcerpt(answer)}`,
  });
}

/**
 * A failed model request as a report error: the status and kind of failure, and at most
 * a short labelled excerpt of what the API answered (SDK errors carry the whole body,
 * which for a tenant-chosen base URL could be anything that URL returns).
 */
export function modelRequestError(err: unknown, attempts = 1): unknown {
  if (err instanceof AppError) return err;
  const denied = egressDenial(err);
  if (denied) return deniedErrorFrom(denied, 'baseUrl');
  const e = err as { status?: unknown; name?: string; message?: string };
  const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
  if (e && typeof e.status === 'number') {
    return new AppError('model_error', `The model API answered HTTP ${e.status}${tries}.`, {
      status: e.status,
      attempts,
      untrustedExcerpt: `model API answer, first ${EXCERPT_CHARS} characters: ${untrustedExcerpt(e.message ?? '')}`,
    });
  }
  const conn = connectionError(err);
  if (conn) return new AppError('model_error', `Could not reach the model API (${conn === 'timeout' ? 'no answer within the request timeout' : 'connection error'})${tries}.`, { attempts });
  return err;
}

/** An SDK's connection error (the OpenAI SDK names its errors "Error": their class tells). */
function connectionError(err: unknown): 'timeout' | 'connection' | null {
  const e = err as { name?: string; constructor?: { name?: string } } | null;
  const names = `${e?.name ?? ''} ${e?.constructor?.name ?? ''}`;
  if (/APIConnectionTimeoutError/.test(names)) return 'timeout';
  if (/APIConnectionError/.test(names)) return 'connection';
  return null;
}

export interface RetryPolicy {
  /** Retries after the first request (so maxRetries + 1 requests at most). */
  maxRetries: number;
  /** The longest wait a Retry-After may ask for; more fails the case at once. */
  maxWaitMs: number;
  /** First backoff when the answer says nothing (doubled each time). */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, maxWaitMs: 30_000, baseDelayMs: 500 };

/** The wait an error answer asks for: retry-after-ms, else Retry-After (seconds or an HTTP date); null when none. */
export function retryAfterMs(headers: unknown, now = Date.now()): number | null {
  const get = (name: string): string | null => {
    if (!headers) return null;
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
    const v = (headers as Record<string, unknown>)[name];
    return typeof v === 'string' ? v : null;
  };
  const ms = Number(get('retry-after-ms'));
  if (get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = get('retry-after');
  if (raw === null || raw.trim() === '') return null;
  const secs = Number(raw);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}


/**
 * A snapshot diff as lines of words for the model: what appeared, went away or changed,
 * with text and refs (never raw JSON). Refs are written "ref eN" so a diff never reads as
 * a snapshot.
 */
export function renderDiff(d: DiffLike, cutHint?: string, max = 60): string[] {
  const out = diffInWords(d, { refs: 'words', maxLines: max, more: (n) => `… ${n} more change(s): call snapshot to see the page.` });
  if (cutHint) out.push(cutHint);
  return out.length ? ['changes:', ...out] : [];
}

export abstract class ModelPlanner implements Planner {
  abstract readonly name: string;
  constructor(readonly model: string) {}

  /** One request to the model: the conversation so far, then the tool calls it answers with. */
  protected abstract turn(system: string, tools: ToolDef[], signal: AbortSignal): Promise<TurnResult>;
  /** Start a conversation for a case. */
  protected abstract begin(prompt: string): void;
  /** Append the model's turn and the tool results to the conversation. */
  protected abstract record(turn: TurnResult, results: ToolResult[]): void;
  /** Append a plain user message (nudges). */
  protected abstract nudge(text: string): void;
  /** Replace the content of an earlier tool result in the conversation. */
  protected abstract replaceResult(id: string, content: string): void;

  /**
   * Only the last snapshot of each role stays in the conversation: older ones are
   * replaced by a line. Their refs are stale anyway (the model must act on its last
   * snapshot), and every turn re-sends the whole conversation, so this is what keeps
   * input tokens per turn bounded instead of growing with every page seen.
   */
  private readonly snapshotIds = new Map<string, string[]>();
  private elideOldSnapshots(role: string, id: string): void {
    const ids = this.snapshotIds.get(role) ?? [];
    for (const old of ids) this.replaceResult(old, `(older snapshot of role ${role} left out: act only on refs from your latest snapshot)`);
    this.snapshotIds.set(role, [id]);
  }

  /** How model requests are retried: 429 and 5xx answers, timeouts and lost connections. */
  readonly retry: RetryPolicy = { ...DEFAULT_RETRY };

  /**
   * One turn, retried a bounded number of times. A 429 (or 503) that says when to come
   * back (retry-after-ms, Retry-After in seconds or as a date) is waited out when that is
   * within maxWaitMs, and the case fails at once with the wait asked when it is not;
   * without a Retry-After the waits back off (0.5 s, 1 s, 2 s ...). The SDKs' own retries
   * are off, so every retry is this one, bounded and said in the error.
   */
  private async turnWithRetry(tools: CaseTools): Promise<TurnResult> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.turn(SYSTEM_PROMPT, TOOLS, tools.signal);
      } catch (err) {
        if (tools.signal.aborted) tools.checkpoint();
        const e = err as { status?: unknown; headers?: unknown; name?: string };
        const status = typeof e?.status === 'number' ? e.status : undefined;
        const timeout = connectionError(err) !== null;
        // A base URL the egress policy denies is not tried again: it stays denied.
        const retryable = !egressDenial(err) && (status === 429 || status === 408 || (status !== undefined && status >= 500) || timeout);
        if (!retryable || attempt >= this.retry.maxRetries) throw modelRequestError(err, attempt + 1);
        const asked = retryAfterMs(e.headers);
        if (asked !== null && asked > this.retry.maxWaitMs) {
          throw new AppError('model_error', `The model API answered HTTP ${status} and asked to wait ${Math.ceil(asked / 1000)} s, longer than the ${Math.round(this.retry.maxWaitMs / 1000)} s a run waits for it.`, { status, retryAfterMs: asked, attempts: attempt + 1 });
        }
        const wait = asked ?? Math.min(this.retry.maxWaitMs, this.retry.baseDelayMs * 2 ** attempt);
        tools.usage.retries = (tools.usage.retries ?? 0) + 1;
        await sleepUnlessAborted(wait, tools.signal);
        tools.checkpoint();
      }
    }
  }

  /** One plan step (replay healing): the loop on a case of that step alone. */
  async runStep(step: PlanCase['steps'][number], tools: CaseTools, c: PlanCase): Promise<boolean> {
    const before = { completed: tools.completed, passed: tools.completedPassed, summary: tools.summary, assertions: tools.report.assertions.length };
    tools.completed = false;
    await this.runCase({ ...c, steps: [step] }, tools);
    const ok = tools.completed && tools.completedPassed && tools.report.assertions.slice(before.assertions).every((a) => a.passed);
    Object.assign(tools, { completed: before.completed, completedPassed: before.passed, summary: before.summary });
    return ok;
  }

  async runCase(c: PlanCase, tools: CaseTools): Promise<void> {
    const roles = tools.roles;
    this.begin(casePrompt(c, roles));
    this.snapshotIds.clear();
    /** Roles whose last action failed: they need a fresh snapshot before acting. */
    const mustSnapshot = new Set<string>();
    let idle = 0;
    for (;;) {
      tools.checkpoint();
      const turn = await this.turnWithRetry(tools);
      tools.addTurn(turn.inputTokens, turn.outputTokens);
      if (turn.refusal !== undefined) {
        tools.complete(false, `The model refused to go on (its words, excerpt: "${untrustedExcerpt(turn.refusal || turn.text)}").`);
        return;
      }
      if (!turn.calls.length) {
        if (++idle >= 2) {
          tools.complete(false, `The model stopped without calling complete_case (its last text, excerpt: "${untrustedExcerpt(turn.text)}").`);
          return;
        }
        this.record(turn, []);
        this.nudge('Use the tools. Call complete_case when the case is done.');
        continue;
      }
      idle = 0;
      const results: ToolResult[] = [];
      let done = false;
      for (const call of turn.calls) {
        if (done) {
          results.push({ id: call.id, name: call.name, content: 'Ignored: complete_case was already called.', isError: true });
          continue;
        }
        const r: { content: string; isError: boolean; snapshotOf?: string } = await this.execute(c, call, tools, mustSnapshot).catch((err) => {
          if (err instanceof CaseStop) throw err;
          return { content: JSON.stringify({ error: errorOf(err) }), isError: true };
        });
        results.push({ id: call.id, name: call.name, ...r });
        if (call.name === 'complete_case' && !r.isError) done = true;
      }
      this.record(turn, results);
      for (const r of results) if (r.snapshotOf && !r.isError) this.elideOldSnapshots(r.snapshotOf, r.id);
      if (done) return;
    }
  }

  private async execute(c: PlanCase, call: ToolCall, tools: CaseTools, mustSnapshot: Set<string>): Promise<{ content: string; isError: boolean; snapshotOf?: string }> {
    const bad = validateArgs(call);
    if (bad) return { content: JSON.stringify({ error: { code: 'invalid_tool_call', message: bad } }), isError: true };
    const a = call.args!;
    const stepNo = typeof a.step === 'number' ? a.step : undefined;
    const planStep = stepNo !== undefined ? c.steps.find((s) => s.index === stepNo) : undefined;
    const role = str(a.role) ?? planStep?.role ?? c.role;
    if (!tools.roles.includes(role)) {
      return { content: JSON.stringify({ error: { code: 'role_not_found', message: `No role "${role}"; roles: ${tools.roles.join(', ')}.` } }), isError: true };
    }
    const ask = { planStep: planStep?.index, asked: planStep?.text ?? `(model) ${call.name}` };
    const err = (code: string, message: string, details?: Record<string, unknown>) => ({ content: JSON.stringify({ error: { code, message, ...(details ? { details } : {}) } }), isError: true });

    if (call.name === 'snapshot') {
      const snap = await tools.snapshot(role);
      mustSnapshot.delete(role);
      return { content: `url: ${snap.url}\ntitle: ${snap.title}\n${snap.truncated ? `(budgeted to ${tools.settings.snapshotMaxTokens} tokens; parts collapsed)\n` : ''}${snap.text}`, isError: false, snapshotOf: role };
    }
    if (call.name === 'complete_case') {
      tools.complete(Boolean(a.passed), (str(a.summary) ?? '').slice(0, 500));
      return { content: 'Case closed.', isError: false };
    }
    if (call.name === 'assert') {
      const check = toCheck(a);
      if (typeof check === 'string') return err('invalid_tool_call', check);
      if ('ref' in check && check.ref) {
        const refErr = await this.checkRef(tools, role, check.ref, mustSnapshot);
        if (refErr) return err(refErr.code, refErr.message);
      }
      const rec = check.type === 'email_received'
        ? await assertEmailReceived(tools, role, { ...ask, description: planStep?.text }, { ...(check.from ? { from: check.from } : {}), ...(check.subject ? { subject: check.subject } : {}) })
        : await tools.assert(role, check, { ...ask, description: planStep?.text });
      return { content: JSON.stringify({ passed: rec.passed, ...(rec.actual ? { actual: rec.actual } : {}), ...(rec.error ? { error: rec.error } : {}) }), isError: !rec.passed };
    }
    if (call.name === 'wait_for_stable') {
      const r = await tools.waitForStable(role, ask, { quietMs: a.quietMs as number | undefined, timeoutMs: a.timeoutMs as number | undefined });
      return { content: JSON.stringify(r), isError: false };
    }
    const outside = await this.outsideTool(call, a, tools, role, ask, planStep);
    if (outside) return outside;
    if (call.name === 'type' && a.keyByKey) {
      // A split one-time-code input: a paste on the group (key presses box by box only if
      // the page ignores it), then the boxes are read back.
      const refErr = await this.checkRef(tools, role, String(a.ref), mustSnapshot);
      if (refErr) return err(refErr.code, refErr.message);
      const code = String(a.text ?? '');
      const r = await tools.record(role, ask, 'enter_code', { value: code }, async (state, step) => {
        const entry = await enterOneTimeCode(state!.page, code, tools.settings.actionTimeoutMs);
        step.params = { value: code, key: entry.method };
        if (entry.value !== code) throw new AppError('action_failed', `Entered ${code} (${entry.method}), but the fields hold "${entry.value}".`, { code, entered: entry.value });
        return entry;
      }, { onPage: true });
      if (!r.ok) mustSnapshot.add(role);
      return r.ok ? { content: JSON.stringify({ ok: true, ...r.result }), isError: false } : err(r.error!.code, r.error!.message, r.error!.details);
    }
    // Actions.
    let action: FlowAction;
    const ref = str(a.ref);
    switch (call.name) {
      case 'navigate': action = { action: 'navigate', url: str(a.url) }; break;
      case 'back': action = { action: 'back' }; break;
      case 'click': action = { action: 'click', ref, ...(a.double ? { double: true } : {}) }; break;
      // With submit, the page layer types and presses Enter, and checks that the page took it.
      case 'type': action = a.submit ? { action: 'type', ref, text: str(a.text), submit: true } : { action: 'fill', ref, value: str(a.text) }; break;
      case 'select': action = { action: 'select', ref, value: str(a.value), by: a.by === 'value' ? 'value' : 'label' }; break;
      case 'check': case 'uncheck': case 'hover': action = { action: call.name, ref }; break;
      case 'drag': action = { action: 'drag', ref, targetRef: str(a.targetRef) }; break;
      case 'scroll': action = { action: 'scroll', ...(ref ? { ref } : {}), direction: a.direction as FlowAction['direction'], ...(typeof a.amount === 'number' ? { amount: a.amount } : {}) }; break;
      case 'upload': {
        const files = (a.files as { name?: unknown; content?: unknown; contentBase64?: unknown; mimeType?: unknown }[]).map((f) => ({
          name: String(f.name ?? 'file.txt'),
          ...(typeof f.mimeType === 'string' ? { mimeType: f.mimeType } : {}),
          contentBase64: typeof f.contentBase64 === 'string' ? f.contentBase64 : Buffer.from(String(f.content ?? ''), 'utf8').toString('base64'),
        }));
        action = { action: 'upload', ref, files };
        break;
      }
      case 'press': action = { action: 'press', key: str(a.key), ...(ref ? { ref } : {}) }; break;
      case 'handle_dialog': action = { action: 'handle_dialog', accept: Boolean(a.accept), ...(typeof a.promptText === 'string' ? { promptText: a.promptText } : {}) }; break;
      default: return err('invalid_tool_call', `Unknown tool ${call.name}.`);
    }
    for (const r of [action.ref, action.targetRef]) {
      if (!r) continue;
      const refErr = await this.checkRef(tools, role, r, mustSnapshot);
      if (refErr) return err(refErr.code, refErr.message);
    }
    if (action.action === 'fill' && planStep && /\{\{/.test(planStep.text)) Object.assign(ask, { secretParams: [...planStep.text.matchAll(/\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g)].map((m) => m[1]).filter((n) => /pass|secret|token|key|otp|pin/i.test(n)) });
    const res = await tools.act(role, action, ask, { look: action.action !== 'handle_dialog' });
    if (!res.ok) {
      mustSnapshot.add(role);
      return err(res.error!.code, `${res.error!.message} Take a fresh snapshot before the next action.`, res.error!.details);
    }
    const o = res.outcome!;
    const view = o.snapshot;
    const lines = [`ok: ${call.name}${ref ? ` ${ref}` : ''} done; ${res.effect?.summary ?? 'its effect was not observed'}.`];
    if (o.navigated || view?.snapshot !== undefined) lines.push(`url: ${o.url}`, `title: ${o.title}`);
    if (o.dialog) lines.push(`dialog open: ${o.dialog.type} "${o.dialog.message}" (answer it with handle_dialog)`);
    if (view?.diff) lines.push(...renderDiff(view.diff, view.truncation?.hint));
    else if (view?.snapshot !== undefined) {
      // A new document: its whole snapshot (the model's new latest snapshot).
      lines.push('A new page: its snapshot follows; act only on its refs.', `${view.truncated ? `(budgeted to ${tools.settings.snapshotMaxTokens} tokens; parts collapsed)\n` : ''}${String(view.snapshot)}`);
      return { content: lines.join('\n'), isError: false, snapshotOf: role };
    }
    return { content: lines.join('\n'), isError: false };
  }

  /** The tools that reach outside the page: the run's inbox and HTTP requests (null: not one of them). */
  private async outsideTool(call: ToolCall, a: Record<string, unknown>, tools: CaseTools, role: string, ask: AskContext, planStep: PlanStep | undefined): Promise<{ content: string; isError: boolean } | null> {
    const reply = (r: { ok: boolean; result?: unknown; error?: { code: string; message: string; details?: Record<string, unknown> } }) =>
      r.ok ? { content: JSON.stringify(r.result ?? { ok: true }), isError: false } : { content: JSON.stringify({ error: r.error }), isError: true };
    switch (call.name) {
      case 'create_temp_email':
        return reply(await useNewEmail(tools, role, ask, 'no'));
      case 'wait_for_verification_code':
        return reply(await tools.record(role, ask, 'read_email_code', {}, async (_s, step) => {
          const { code, rule, message } = await nextCode(tools);
          step.params = { value: code, text: `code from "${message.subject}" (${rule})` };
          return { code, rule, subject: message.subject, from: message.from };
        }));
      case 'check_email_inbox':
        return reply(await tools.record(role, ask, 'check_email_inbox', {}, async () => {
          const want = { subject: str(a.subject), from: str(a.from) };
          if (typeof a.waitSeconds === 'number' && a.waitSeconds > 0 && tools.mail) {
            await tools.mail.any({ match: (m) => (!want.subject || m.subject.toLowerCase().includes(want.subject.toLowerCase())) && (!want.from || m.from.toLowerCase().includes(want.from.toLowerCase())), timeoutMs: a.waitSeconds * 1000 });
          }
          if (!tools.mail) throw new AppError('inbox_disabled', 'This service receives no mail (SMTP_PORT unset).');
          return tools.mail.summary();
        }));
      case 'open_email_link': {
        const r = await openEmailLink(tools, role, ask);
        return r.ok ? { content: JSON.stringify({ ok: true, url: r.step.url, hint: 'The page changed: snapshot before acting on it.' }), isError: false } : { content: JSON.stringify({ error: r.error }), isError: true };
      }
      case 'http_request': {
        const spec = { method: String(a.method), url: String(a.url), ...(typeof a.body === 'string' ? { body: a.body } : {}) };
        const base = await currentUrl(tools, role);
        if (planStep && (a.expectStatus !== undefined || a.expectText !== undefined)) {
          const rec = await assertHttp(tools, role, { ...ask, description: planStep.text }, { method: spec.method.toUpperCase(), url: spec.url, ...(typeof a.expectStatus === 'number' ? { status: a.expectStatus } : {}), ...(typeof a.expectText === 'string' ? { contains: a.expectText } : {}) }, base);
          return { content: JSON.stringify({ passed: rec.passed, actual: rec.actual, ...(rec.error ? { error: rec.error } : {}) }), isError: !rec.passed };
        }
        const r = await httpStep(tools, role, ask, spec, base);
        if (!r.ok) return reply(r);
        const ans = r.result!;
        return { content: JSON.stringify({ status: ans.status, headers: ans.headers, body: ans.body.slice(0, 4000), truncated: ans.truncated || ans.body.length > 4000 }), isError: false };
      }
      default:
        return null;
    }
  }

  /** Seed 004 as rules: refs only from the last snapshot of a page the model has seen. */
  private async checkRef(tools: CaseTools, role: string, ref: string, mustSnapshot: Set<string>): Promise<{ code: string; message: string } | null> {
    if (mustSnapshot.has(role)) return { code: 'snapshot_required', message: 'Your last action failed: call snapshot for fresh refs before acting again (do not reword and retry).' };
    if (await tools.needsSnapshot(role)) return { code: 'snapshot_required', message: 'This page is new since your last snapshot (it navigated): call snapshot, then act on its refs.' };
    const { known, sample } = await tools.session.run(role, async (state) => ({
      known: state.lastSnapshot ? findRef(state.lastSnapshot.tree, ref) : null,
      // Diagnostics: what the last snapshot does offer to act on.
      sample: state.lastSnapshot
        ? [...indexRefs(state.lastSnapshot.tree).values()].filter((n) => personName(n) && (ACTIONABLE.has(n.role) || (n as { cursor?: string }).cursor === 'pointer')).slice(0, 15).map((n) => `${n.ref} ${n.role} "${personName(n)}"`)
        : [],
    }));
    if (!known) {
      return { code: 'ref_not_found', message: `Ref ${ref} is not in your last snapshot of role ${role}: use a ref from it, or call snapshot again.${sample.length ? ` Actionable refs in that snapshot: ${sample.join(', ')}.` : ''}` };
    }
    return null;
  }
}

function toCheck(a: Record<string, unknown>): CheckSpec | string {
  const text = str(a.text);
  const value = str(a.value);
  const ref = str(a.ref);
  switch (a.type) {
    case 'text_visible': return text ? { type: 'text_visible', text } : 'text_visible needs "text".';
    case 'text_hidden': return text ? { type: 'text_hidden', text } : 'text_hidden needs "text".';
    case 'url_contains': return value ? { type: 'url', op: 'contains', value } : 'url_contains needs "value".';
    case 'url_is': return value ? { type: 'url', op: 'is', value } : 'url_is needs "value".';
    case 'title_contains': return value ? { type: 'title', op: 'contains', value } : 'title_contains needs "value".';
    case 'element_contains': return ref && text ? { type: 'element_text', ref, text } : 'element_contains needs "ref" and "text".';
    case 'element_checked': return ref ? { type: 'element_state', ref, state: 'checked' } : 'element_checked needs "ref".';
    case 'element_unchecked': return ref ? { type: 'element_state', ref, state: 'unchecked' } : 'element_unchecked needs "ref".';
    case 'element_value': return ref && value !== undefined ? { type: 'element_value', ref, value } : 'element_value needs "ref" and "value".';
    case 'email_received': return { type: 'email_received', ...(value ? { from: value } : {}), ...(text ? { subject: text } : {}) };
    default: return `Unknown assertion type ${String(a.type)}.`;
  }
}
