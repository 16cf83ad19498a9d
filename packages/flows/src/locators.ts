import type { ElementHandle, FrameLocator, Locator, Page } from 'playwright-core';
import * as pageLib from '@ariadne/page';
import { findRef, type PageState } from '@ariadne/page';
import type { LocatorRecord } from './types.js';

// Every step records a VERIFIED locator for the element it acted on, computed before
// the action (a click may navigate the element away). Role + exact name comes first
// and is proven on the live page (one match, and it is the ref's element); when that
// is not unique (repeated cards), the locator synthesizer of @ariadne/page composes
// container-scoped candidates and proves them the same way. Replays and the exported
// spec use these codes, so they are parsed back into Playwright locators here too.

const NAMELESS = new Set(['generic', 'none', 'presentation', 'text', 'paragraph', 'group', 'list', 'listitem', 'region', 'main', 'navigation', 'article', 'section']);

export function q(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
}

async function sameElement(loc: Locator, handle: ElementHandle): Promise<boolean> {
  try {
    return await loc.evaluateAll((els, t) => els.length === 1 && els[0] === t, handle);
  } catch {
    return false;
  }
}

type Synth = (state: PageState, opts: { ref: string; max?: number }) => Promise<{ locators: { code: string; strategy: string; fragile?: boolean }[] }>;

/** The verified locator of a ref in the tab's latest snapshot; null if none could be proven. */
export async function verifiedLocator(state: PageState, ref: string): Promise<LocatorRecord | null> {
  const page = state.page;
  const node = state.lastSnapshot ? findRef(state.lastSnapshot.tree, ref) : null;
  const handle = await page.locator(`aria-ref=${ref}`).elementHandle({ timeout: 1000 }).catch(() => null);
  if (!handle) return null;
  try {
    if (node?.role && node.name && !NAMELESS.has(node.role)) {
      const loc = page.getByRole(node.role as Parameters<Page['getByRole']>[0], { name: node.name, exact: true });
      if (await sameElement(loc, handle)) {
        return { code: `page.getByRole(${q(node.role)}, { name: ${q(node.name)}, exact: true })`, verified: true, strategy: 'role', source: 'role-name' };
      }
    }
    // Not unique by role and name (or nameless): the synthesizer, when this build has it.
    const synth = (pageLib as unknown as { synthesizeLocators?: Synth }).synthesizeLocators;
    if (typeof synth === 'function') {
      const res = await synth(state, { ref, max: 1 }).catch(() => null);
      const best = res?.locators[0];
      if (best) return { code: best.code, verified: true, strategy: best.strategy, source: 'synthesized' };
    }
    // Last resort: the nth match of role + name, proven, and flagged as fragile.
    if (node?.role && !NAMELESS.has(node.role)) {
      const base = page.getByRole(node.role as Parameters<Page['getByRole']>[0], node.name ? { name: node.name, exact: true } : {});
      const index = await base.evaluateAll((els, t) => (els as unknown[]).indexOf(t), handle).catch(() => -1);
      if (index >= 0 && (await sameElement(base.nth(index), handle))) {
        const opts = node.name ? `, { name: ${q(node.name)}, exact: true }` : '';
        return { code: `page.getByRole(${q(node.role)}${opts}).nth(${index})`, verified: true, strategy: 'nth', source: 'role-name' };
      }
    }
    return null;
  } finally {
    await handle.dispose().catch(() => {});
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
