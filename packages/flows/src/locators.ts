import type { FrameLocator, Locator, Page } from 'playwright-core';
import { isElement, prepareStepLocator, resolveRef, type AriaNode, type PageState, type StepLocator } from '@ariadne/page';
import type { LocatorRecord } from './types.js';

// Every step records a VERIFIED locator for the element it acted on, and keeps it off
// the step's critical path (@ariadne/page prepareStepLocator): what it needs from the page
// is gathered in one round trip before the action (role + exact name proven with
// Playwright, or, when that is not unique — repeated cards — the synthesizer's
// container-scoped candidates drafted and matched in the page), and the Playwright proof
// of those candidates is sent before the action and read after it. Replays and the
// exported spec use these codes, so they are parsed back into Playwright locators here too.

export function q(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
}

const record = (l: StepLocator | null): LocatorRecord | null => (l ? { code: l.code, verified: true, strategy: l.strategy, source: l.source } : null);

/**
 * Before acting on a ref: throws ref_not_found / ref_stale at once when it does not
 * resolve; `settle()`, called after the action, answers the proven locator (or null).
 */
export async function prepareVerifiedLocator(state: PageState, ref: string): Promise<{ settle: () => Promise<LocatorRecord | null> }> {
  try {
    const p = await prepareStepLocator(state, ref, { roleNameRepeated: roleNameRepeated(state.lastSnapshot?.tree ?? [], ref) });
    return { settle: () => p.settle().then(record, () => null) };
  } catch {
    // The ref's own error (unknown, stale, not a ref), or no locator when only the proof failed.
    await resolveRef(state, ref);
    return { settle: async () => null };
  }
}

/**
 * Does the snapshot show another element with the same role and name as this ref (a
 * repeated card's button)? Then role + name cannot be its locator on its own. A guess
 * that only picks how the locator is gathered: the proof decides either way.
 */
export function roleNameRepeated(tree: AriaNode[], ref: string): boolean {
  let target: { role: string; name: string } | null = null;
  const seen = new Map<string, number>();
  const walk = (nodes: AriaNode[]) => {
    for (const n of nodes) {
      if (!isElement(n)) continue;
      if (n.name) {
        const key = `${n.role}\u0000${n.name}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        if (n.ref === ref) target = { role: n.role, name: n.name };
      }
      walk(n.children ?? []);
    }
  };
  walk(tree);
  const t = target as { role: string; name: string } | null;
  return t !== null && (seen.get(`${t.role}\u0000${t.name}`) ?? 0) > 1;
}

/** The verified locator of a ref in the tab's latest snapshot; null if none could be proven. */
export async function verifiedLocator(state: PageState, ref: string): Promise<LocatorRecord | null> {
  try {
    return await (await prepareVerifiedLocator(state, ref)).settle();
  } catch {
    return null;
  }
}

// --- Parsing locator code back (replay) -------------------------------------------

type Call = { m: string; args: Arg[] };
/** `{ __chain }`: a nested locator expression, e.g. filter({ has: page.getByRole('heading', ...) }). */
type Arg = string | number | boolean | RegExp | { __chain: Call[] } | { [k: string]: Arg };

class CodeParser {
  private i = 0;
  constructor(private readonly s: string) {}
  private ws() {
    while (/\s/.test(this.s[this.i] ?? '')) this.i++;
  }
  private eat(ch: string): boolean {
    this.ws();
    if (this.s[this.i] === ch) {
      this.i++;
      return true;
    }
    return false;
  }
  private expect(ch: string) {
    if (!this.eat(ch)) throw new Error(`expected "${ch}" at ${this.i} in ${this.s}`);
  }
  ident(): string {
    this.ws();
    const m = /^[A-Za-z_$][\w$]*/.exec(this.s.slice(this.i));
    if (!m) throw new Error(`expected a name at ${this.i} in ${this.s}`);
    this.i += m[0].length;
    return m[0];
  }
  value(): Arg {
    this.ws();
    if (/^page\s*\./.test(this.s.slice(this.i))) {
      this.ident();
      return { __chain: this.calls() };
    }
    const c = this.s[this.i];
    if (c === "'" || c === '"') {
      let out = '';
      this.i++;
      while (this.i < this.s.length && this.s[this.i] !== c) {
        if (this.s[this.i] === '\\') {
          const n = this.s[++this.i];
          out += n === 'n' ? '\n' : n === 'r' ? '\r' : n;
        } else out += this.s[this.i];
        this.i++;
      }
      this.i++;
      return out;
    }
    if (c === '/') {
      let j = this.i + 1;
      while (j < this.s.length && this.s[j] !== '/') j += this.s[j] === '\\' ? 2 : 1;
      const body = this.s.slice(this.i + 1, j);
      const flags = /^[a-z]*/.exec(this.s.slice(j + 1))![0];
      this.i = j + 1 + flags.length;
      return new RegExp(body, flags);
    }
    if (c === '{') {
      this.i++;
      const obj: Record<string, Arg> = {};
      while (!this.eat('}')) {
        const k = this.ident();
        this.expect(':');
        obj[k] = this.value();
        this.eat(',');
      }
      return obj;
    }
    const m = /^(true|false|-?\d+)/.exec(this.s.slice(this.i));
    if (!m) throw new Error(`unexpected "${c}" at ${this.i} in ${this.s}`);
    this.i += m[0].length;
    return m[0] === 'true' ? true : m[0] === 'false' ? false : Number(m[0]);
  }
  chain(): Call[] {
    const root = this.ident();
    if (root !== 'page') throw new Error(`locator code must start with page. (${this.s})`);
    const calls = this.calls();
    this.ws();
    if (this.i < this.s.length) throw new Error(`unexpected trailing text in ${this.s}`);
    return calls;
  }
  private calls(): Call[] {
    const calls: Call[] = [];
    while (this.eat('.')) {
      const m = this.ident();
      this.expect('(');
      const args: Arg[] = [];
      while (!this.eat(')')) {
        args.push(this.value());
        this.eat(',');
      }
      calls.push({ m, args });
    }
    return calls;
  }
}

const ALLOWED = new Set(['getByRole', 'getByText', 'getByLabel', 'getByPlaceholder', 'getByTestId', 'getByAltText', 'getByTitle', 'locator', 'frameLocator', 'filter', 'nth', 'first', 'last']);

/** Build the Locator a recorded code string describes (only locator-building calls are allowed). */
export function locatorFromCode(page: Page, code: string): Locator {
  return fromCalls(page, new CodeParser(code).chain(), code);
}

function resolveArg(page: Page, a: Arg, code: string): unknown {
  if (a && typeof a === 'object' && !(a instanceof RegExp)) {
    if ('__chain' in a) return fromCalls(page, (a as { __chain: Call[] }).__chain, code);
    return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, resolveArg(page, v as Arg, code)]));
  }
  return a;
}

function fromCalls(page: Page, calls: Call[], code: string): Locator {
  let cur: Page | Locator | FrameLocator = page;
  for (const { m, args } of calls) {
    if (!ALLOWED.has(m)) throw new Error(`${m}() is not a locator method`);
    const fn = (cur as unknown as Record<string, (...a: unknown[]) => unknown>)[m];
    if (typeof fn !== 'function') throw new Error(`${m}() cannot follow the previous call in ${code}`);
    cur = fn.apply(cur, args.map((x) => resolveArg(page, x, code))) as Locator;
  }
  if (!('evaluateAll' in cur)) throw new Error(`${code} does not end in an element locator`);
  return cur as Locator;
}
