// The report of a run: plain JSON (diffable, jq-able), from which the JUnit XML, the
// Playwright spec and replays are derived. Every field is a fact recorded while the
// run happened.

export interface LocatorRecord {
  /** Playwright code rooted at `page`, e.g. page.getByRole('button', { name: 'Log in' }). */
  code: string;
  /** How it was proven on the live page before the action. */
  verified: boolean;
  strategy: string;
  /** Where it came from: the locator synthesizer, or role + name from the snapshot. */
  source: 'synthesized' | 'role-name' | 'ladder' | 'none';
}

export interface StepError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export type CheckSpec =
  /** match: 'exact' — some element's whole text is the text (any case); default: a substring. */
  | { type: 'text_visible'; text: string; match?: 'exact' | 'contains' }
  | { type: 'text_hidden'; text: string; match?: 'exact' | 'contains' }
  | { type: 'url'; op: 'is' | 'contains'; value: string }
  | { type: 'title'; op: 'is' | 'contains'; value: string }
  /** match: 'words' — the text as whole words ("Paid" is not in "Unpaid"); default a substring. */
  | { type: 'element_text'; ref?: string; description?: string; text: string; match?: 'contains' | 'words' }
  | { type: 'element_state'; ref?: string; description?: string; state: 'checked' | 'unchecked' | 'enabled' | 'disabled' | 'visible' | 'hidden' }
  | { type: 'element_value'; ref?: string; description?: string; value: string }
  /** The run's inbox received a message (from / subject containing these), checked outside the page. */
  | { type: 'email_received'; from?: string; subject?: string }
  /** An HTTP request answers with this status / a body containing this text, checked outside the page. */
  | { type: 'http'; method: string; url: string; status?: number; contains?: string };

export interface AssertionRecord {
  /** The plan step (1-based) this assertion checks, when it checks one. */
  planStep?: number;
  description: string;
  role: string;
  check: CheckSpec;
  passed: boolean;
  actual?: string;
  /** A missing text: the elements that hold it hidden (and why), else the nearest visible texts. */
  evidence?: { hidden: { text: string; why: string[]; where: string }[]; visible: number; nearest: { text: string; score: number; where: string }[] };
  /** Verified locator of the element checked, for element checks. */
  locator?: LocatorRecord;
  /** The same check as Playwright Test code. */
  expect?: string;
  durationMs: number;
  error?: StepError;
}

export interface StepParams {
  url?: string;
  value?: string | string[];
  text?: string;
  key?: string;
  by?: 'value' | 'label';
  textGone?: string;
  time?: number;
  direction?: string;
  /** handle_dialog: accept (true) or dismiss (false), and the prompt's answer. */
  accept?: boolean;
  promptText?: string;
  /** upload: the names of the files put in the file input. */
  files?: string[];
}

export interface StepRecord {
  /** Sequence number in its case. */
  n: number;
  planStep?: number;
  /** What the plan asked (the step text as written, variables not substituted). */
  asked: string;
  role: string;
  /** navigate, click, fill, type, select, check, press, wait_for, wait_for_stable, assert, ... */
  action: string;
  params?: StepParams;
  /** Names of variables whose values this step's params hold (kept out of exports). */
  secretParams?: string[];
  ref?: string;
  locator?: LocatorRecord;
  /** What the step acted on and why that element (role, name, the rung that matched). */
  target?: { role?: string; name?: string; ref?: string; rung: string; why: string };
  /** How the step's effect was observed after the action (when it was not plain). */
  effect?: string;
  /** Keyboard keys the step pressed. */
  keys?: string[];
  /** The part of a compound plan step this record is ("press Enter"). */
  part?: string;
  status: 'passed' | 'failed';
  startedAt: string;
  durationMs: number;
  url?: string;
  screenshot?: string;
  /** The screenshot is that step's: the page had not changed since (an assertion's step). */
  screenshotOf?: number;
  /** Why a step has no screenshot although screenshots are on. */
  screenshotSkipped?: 'dialog' | 'closed' | 'failed';
  error?: StepError;
  assertion?: AssertionRecord;
  /** Replay: the recorded locator no longer resolved and the planner did this step. */
  healed?: boolean;
}

/** flaky: failed, then passed when tried again (options.retries) — never reported as passed. */
export type CaseStatus = 'passed' | 'flaky' | 'failed' | 'skipped' | 'cancelled';

/**
 * One try of a case that was retried. Every attempt is listed on the case, in order; the
 * last one's steps and assertions are the case's own (`steps`, `assertions`), so only the
 * earlier attempts carry theirs here.
 */
export interface CaseAttempt {
  attempt: number;
  status: CaseStatus;
  summary: string;
  startedAt: string;
  durationMs: number;
  error?: StepError;
  trace?: string;
  /** Earlier attempts only (the last attempt's are the case's). */
  steps?: StepRecord[];
  assertions?: AssertionRecord[];
  missingAssertions?: { planStep: number; text: string }[];
}

export interface CaseUsage {
  turns: number;
  /** From the provider's usage fields (prompt/input and completion/output tokens), summed over turns. */
  inputTokens: number;
  outputTokens: number;
  /** Model requests retried (429, 5xx, timeouts) within those turns. */
  retries?: number;
}

export interface CaseReport {
  index: number;
  name: string;
  status: CaseStatus;
  completed: boolean;
  summary: string;
  steps: StepRecord[];
  assertions: AssertionRecord[];
  /** Mandatory plan steps with no passing assertion. */
  missingAssertions: { planStep: number; text: string }[];
  startedAt: string;
  durationMs: number;
  usage: CaseUsage;
  trace?: string;
  /** Replay: steps the planner redid because their locator no longer resolved. */
  healedSteps?: number[];
  error?: StepError;
  /** Present when the case was tried more than once (options.retries): every attempt, in order. */
  attempts?: CaseAttempt[];
}

export type RunStatus = 'queued' | 'running' | 'passed' | 'failed' | 'error' | 'cancelled';

export interface RunReport {
  runId: string;
  url: string;
  planner: string;
  model?: string;
  status: RunStatus;
  startedAt: string;
  finishedAt?: string;
  durationMs: number;
  cases: CaseReport[];
  /** passed excludes flaky cases (they passed only on a retry); both count as passing for the run's status. */
  totals: {
    cases: number; passed: number; flaky: number; failed: number; skipped: number; cancelled: number; steps: number; assertions: number; failedAssertions: number;
    /** Model turns and tokens (provider usage fields) of every case, retried attempts included. */
    turns: number; inputTokens: number; outputTokens: number;
  };
  usage: CaseUsage;
  replayOf?: string;
  error?: StepError;
  /** The run's callbackUrl delivery, in short (every attempt is in GET /v1/runs/:id `deliveries`). */
  callback?: { url: string; attempts: number; delivered: boolean; status?: number; error?: string };
}

export type RunEvent =
  | { type: 'run_queued'; runId: string }
  | { type: 'run_restarted'; attempt: number; reason: string }
  | { type: 'run_interrupted'; reason: string }
  | { type: 'run_started'; runId: string; planner: string; cases: { index: number; name: string }[] }
  | { type: 'case_started'; case: number; name: string }
  | { type: 'step'; case: number; step: StepRecord }
  | { type: 'turn'; case: number; turn: number; inputTokens: number; outputTokens: number }
  | { type: 'case_finished'; case: number; status: CaseStatus; summary: string; durationMs: number }
  /** A failed case is tried again in a fresh browser context (options.retries). */
  | { type: 'case_retry'; case: number; attempt: number; reason: string }
  | { type: 'run_finished'; status: RunStatus; totals: RunReport['totals']; durationMs: number };

export function emptyTotals(): RunReport['totals'] {
  return { cases: 0, passed: 0, flaky: 0, failed: 0, skipped: 0, cancelled: 0, steps: 0, assertions: 0, failedAssertions: 0, turns: 0, inputTokens: 0, outputTokens: 0 };
}

export function computeTotals(cases: CaseReport[]): RunReport['totals'] {
  const t = emptyTotals();
  for (const c of cases) {
    t.cases++;
    t[c.status]++;
    t.steps += c.steps.length;
    t.assertions += c.assertions.length;
    t.failedAssertions += c.assertions.filter((a) => !a.passed).length;
    t.turns += c.usage?.turns ?? 0;
    t.inputTokens += c.usage?.inputTokens ?? 0;
    t.outputTokens += c.usage?.outputTokens ?? 0;
  }
  return t;
}
