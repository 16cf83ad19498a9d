import { AppError } from '@ariadne/schema';

// Plans are Markdown: `#Case N: name` headers (also #Scenario, #Test) at the start of
// a line, bullets for steps, `{{VAR}}` variables, and an optional role per case or per
// step (`as admin: ...`). A case may also be one sentence ("log in, add a seat, confirm
// the invoice updates"): it is split into steps at commas, semicolons and "then".
// Every parse error is a 400 that names the line.

export interface PlanStep {
  /** 1-based position in its case. */
  index: number;
  /** 1-based line in the plan text. */
  line: number;
  /** The step as written, variables NOT substituted (reports never show secret values). */
  text: string;
  /** The step with variables substituted: what the planner executes. */
  resolved: string;
  role: string;
  /** Verify / Check / Assert / Confirm / Ensure: the case fails unless it is asserted and passes. */
  mandatory: boolean;
}

export interface PlanCase {
  index: number;
  name: string;
  line: number;
  role: string;
  steps: PlanStep[];
}

export interface Plan {
  cases: PlanCase[];
  /** Every role the plan uses, the default role first. */
  roles: string[];
  /** Variables the plan refers to. */
  variables: string[];
}

export interface ParseOptions {
  variables?: Record<string, string>;
  defaultRole?: string;
  maxCases?: number;
  maxStepsPerCase?: number;
}

export const MAX_PLAN_CHARS = 100_000;

const HEADER = /^#{1,6}[ \t]*(case|scenario|test)\b[ \t]*(?:#?\d+)?[ \t]*[:.\-–—)]?[ \t]*(.*)$/i;
const OTHER_HEADER = /^#{1,6}\s/;
const BULLET = /^([ \t]*)(?:[-*+•]|\d+[.)])[ \t]+(.*)$/;
const ROLE_PREFIX = /^as[ \t]+([A-Za-z][\w-]{0,63})[ \t]*[:,][ \t]*(.*)$/i;
const ROLE_LINE = /^(?:role[ \t]*:[ \t]*|as[ \t]+)([A-Za-z][\w-]{0,63})[ \t]*:?[ \t]*$/i;
const HEADER_ROLE = /\(\s*as\s+([A-Za-z][\w-]{0,63})\s*\)\s*$/i;
const VAR = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;
const ROLE_NAME = /^[A-Za-z][\w-]{0,63}$/;

/** Is this step a mandatory assertion? "Check" is also the checkbox verb: see below. */
export function isAssertionStep(text: string): boolean {
  const t = text.trim().replace(/^[*_`]+/, '');
  // "Confirm", "Confirm Remove", "confirm it", "confirm the deletion (in the dialog)": answering
  // the dialog an action opened, not a claim about the page (rules-wording.ts parseConfirm).
  if (/^(?:and\s+)?[Cc]onfirm(?:\s+(?:it|this|(?:the|this|that)\s+[\p{Ll}-]+|\p{Lu}[\p{L}-]*))?(?:\s+in\s+the\s+(?:dialog|modal|pop-?up|prompt))?\s*[.!]?$/u.test(t)) return false;
  if (/^(verify|assert|confirm|ensure|expect|make sure)\b/i.test(t)) return true;
  if (/^check\b/i.test(t)) {
    // "Check the terms checkbox" ticks a box; "Check that ...", "Check: ...",
    // "Check the cart shows 2" asserts. A predicate word decides.
    if (/^check\s*(:|that\b|if\b|whether\b)/i.test(t)) return true;
    const rest = t.replace(/"[^"]*"|“[^”]*”|'[^']*'/g, '""');
    return /\b(is|are|shows?|says?|contains?|reads?|displays?|appears?|equals?|has|have|url|title|visible|present|gone|updates?|updated)\b/i.test(rest);
  }
  return false;
}

function planError(line: number, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('invalid_request', `Plan line ${line}: ${message}`, { field: 'plan', line, ...extra });
}

/** Split a one-sentence case into steps: commas, semicolons, "then", outside quotes. */
export function splitSentence(text: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote: string | null = null;
  const closers: Record<string, string> = { '"': '"', '“': '”' };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      cur += ch;
      if (ch === quote) quote = null;
      continue;
    }
    if (ch in closers) {
      quote = closers[ch];
      cur += ch;
      continue;
    }
    if (ch === ',' || ch === ';' || (ch === '.' && (i === text.length - 1 || /\s/.test(text[i + 1] ?? '')))) {
      parts.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  parts.push(cur);
  return parts
    .flatMap((p) => p.split(/\s+(?:and\s+)?then\s+/i))
    .map((p) => p.trim().replace(/^(?:and|then|and then)\s+/i, '').trim())
    .filter(Boolean);
}

export function parsePlan(source: string, opts: ParseOptions = {}): Plan {
  const defaultRole = opts.defaultRole ?? 'default';
  const vars = opts.variables ?? {};
  const maxCases = opts.maxCases ?? 100;
  const maxSteps = opts.maxStepsPerCase ?? 200;
  if (typeof source !== 'string' || !source.trim()) throw planError(1, 'the plan is empty: write at least one "#Case 1: name" with bullet steps, or one sentence.');
  if (source.length > MAX_PLAN_CHARS) throw planError(1, `the plan is ${source.length} characters; the limit is ${MAX_PLAN_CHARS}.`);
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const used = new Set<string>();

  const substitute = (text: string, line: number): string =>
    text.replace(VAR, (_m, name: string) => {
      used.add(name);
      // {{EMAIL}} is the run's inbox address, filled in when the step runs.
      if (name === 'EMAIL' && !(name in vars)) return '{{EMAIL}}';
      if (!(name in vars)) {
        throw planError(line, `unknown variable {{${name}}}: pass it in "variables".`, { variable: name });
      }
      return String(vars[name]);
    });

  const cases: PlanCase[] = [];
  const hasHeaders = lines.some((l) => HEADER.test(l));
  let current: PlanCase | null = null;
  let lastStep: PlanStep | null = null;
  let lastBulletIndent = -1;

  const newCase = (name: string, line: number, role: string): PlanCase => {
    if (cases.length >= maxCases) throw planError(line, `a plan has at most ${maxCases} cases.`);
    const c: PlanCase = { index: cases.length + 1, name, line, role, steps: [] };
    cases.push(c);
    return c;
  };

  const addStep = (c: PlanCase, raw: string, line: number) => {
    let text = raw.trim();
    let role = c.role;
    const m = ROLE_PREFIX.exec(text);
    if (m) {
      role = m[1];
      text = m[2].trim();
      if (!text) throw planError(line, `"as ${role}:" needs a step after it.`);
    }
    if (c.steps.length >= maxSteps) throw planError(line, `a case has at most ${maxSteps} steps.`);
    const resolved = substitute(text, line);
    const step: PlanStep = { index: c.steps.length + 1, line, text, resolved, role, mandatory: isAssertionStep(resolved) };
    c.steps.push(step);
    lastStep = step;
  };

  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i];
    if (!line.trim() || /^\s*<!--.*-->\s*$/.test(line)) continue;
    const h = HEADER.exec(line);
    if (h) {
      let name = h[2].trim().replace(/[*_`]+/g, '').trim();
      let role = defaultRole;
      const hr = HEADER_ROLE.exec(name);
      if (hr) {
        role = hr[1];
        name = name.slice(0, hr.index).trim();
      }
      name = substitute(name, lineNo);
      current = newCase(name || `${h[1][0].toUpperCase()}${h[1].slice(1).toLowerCase()} ${cases.length + 1}`, lineNo, role);
      lastStep = null;
      lastBulletIndent = -1;
      continue;
    }
    if (OTHER_HEADER.test(line)) {
      // "# Checkout smoke tests": a title, not a case.
      if (!current) continue;
      throw planError(lineNo, `"${line.trim().slice(0, 80)}" is a header but not a case: write "#Case N: name" (or #Scenario / #Test).`);
    }
    if (!current) {
      if (hasHeaders) {
        // Prose before the first case is a description, unless it looks like a step.
        if (BULLET.test(line)) throw planError(lineNo, 'this step comes before the first "#Case N: name" header.');
        continue;
      }
      current = newCase(line.trim().replace(/[.!]+$/, '').slice(0, 120), lineNo, defaultRole);
      lastStep = null;
    }
    const b = BULLET.exec(line);
    if (b) {
      addStep(current, b[2], lineNo);
      lastBulletIndent = b[1].replace(/\t/g, '    ').length;
      continue;
    }
    const roleLine = ROLE_LINE.exec(line.trim());
    if (roleLine && current.steps.length === 0) {
      current.role = roleLine[1];
      continue;
    }
    const indent = (/^[ \t]*/.exec(line)?.[0] ?? '').replace(/\t/g, '    ').length;
    if (lastStep && lastBulletIndent >= 0 && indent > lastBulletIndent) {
      // A wrapped bullet: its continuation belongs to it.
      const s = lastStep as PlanStep;
      s.text = `${s.text} ${line.trim()}`;
      s.resolved = `${s.resolved} ${substitute(line.trim(), lineNo)}`;
      s.mandatory = isAssertionStep(s.resolved);
      continue;
    }
    // A sentence: one or more steps.
    for (const part of splitSentence(line.trim())) addStep(current, part, lineNo);
    lastBulletIndent = -1;
  }

  for (const c of cases) {
    if (c.steps.length === 0) throw planError(c.line, `case "${c.name}" has no steps: add bullets under it.`);
  }
  if (cases.length === 0) throw planError(1, 'no cases found: write "#Case 1: name" followed by bullet steps.');
  // Only roles a step runs as get a browser context.
  const roles: string[] = [];
  for (const c of cases) for (const s of c.steps) if (!roles.includes(s.role)) roles.push(s.role);
  for (const r of roles) if (!ROLE_NAME.test(r)) throw planError(1, `"${r}" is not a valid role name.`);
  return { cases, roles, variables: [...used] };
}
