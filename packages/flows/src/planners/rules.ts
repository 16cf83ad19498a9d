import { isElement, roleHintFor, type AriaElement, type AriaNode, type AriaRole } from '@ariadne/page';
import { isAssertionStep, type PlanCase, type PlanStep } from '../plan.js';
import type { CheckSpec } from '../types.js';
import { CaseStop, errorOf, type AskContext, type CaseTools } from '../tools.js';
import type { Planner } from './planner.js';
import { interpretMailStep, runMailStep } from './rules-mail.js';
import { EMAIL_VAR } from '../tools.js';

// The offline planner (the default): deterministic, no API key. It interprets one
// imperative step at a time — go to / open, click, type/enter X into Y, select X in Y,
// check/uncheck, press, hover, wait for, scroll, verify ... — and targets elements on
// the live snapshot by role + name (optionally scoped: `in the "Blue Mug" card`), then
// falls back to the description ladder. A step it cannot interpret fails the case with
// a message that says so and lists what it understands.

export interface TargetSpec {
  phrase: string;
  role: AriaRole | null;
  /** Text of the container the element must be in ("the Blue Mug card"). */
  scope?: string;
}

export type Intent =
  | { kind: 'navigate'; url: string }
  | { kind: 'back' | 'forward' | 'reload' }
  | { kind: 'click' | 'hover' | 'check' | 'uncheck'; target: TargetSpec }
  | { kind: 'fill'; target: TargetSpec; value: string }
  | { kind: 'select'; target: TargetSpec; value: string }
  | { kind: 'press'; key: string; target?: TargetSpec }
  | { kind: 'wait_text'; text: string }
  | { kind: 'wait_gone'; text: string }
  | { kind: 'wait_time'; ms: number }
  | { kind: 'wait_stable' }
  | { kind: 'scroll'; direction: 'up' | 'down' | 'top' | 'bottom' }
  | { kind: 'assert'; check: CheckSpec | ElementCheck }
  | { kind: 'login'; user: string; password: string }
  | { kind: 'dialog'; accept: boolean; promptText?: string }
  | { kind: 'unknown'; reason: string };

/** An element check whose element is still a description (resolved on the snapshot). */
export interface ElementCheck {
  type: 'element_text' | 'element_state' | 'element_value';
  target: TargetSpec;
  text?: string;
  state?: 'checked' | 'unchecked' | 'enabled' | 'disabled' | 'visible' | 'hidden';
  value?: string;
}

export const UNDERSTOOD = 'go to/open <url>, click/tap <element>, type/enter <text> into <field>, fill <field> with <text>, select <option> in <dropdown>, check/uncheck <box>, press <key>, hover <element>, accept/dismiss the dialog, wait for "<text>" / the page to settle / N seconds, scroll down/up, go back, reload, log in as <user> with <password>, add <item> to the cart, and Verify/Check/Assert/Confirm/Ensure "<text>" is visible / is not visible / the URL contains <x> / the title is <x> / <element> contains "<text>" / <element> is checked';

const KEYS = new Set(['enter', 'tab', 'escape', 'esc', 'space', 'backspace', 'delete', 'arrowup', 'arrowdown', 'arrowleft', 'arrowright', 'home', 'end', 'pageup', 'pagedown', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9', 'f10', 'f11', 'f12']);
const KEY_NAMES: Record<string, string> = { esc: 'Escape', escape: 'Escape', enter: 'Enter', tab: 'Tab', space: ' ', backspace: 'Backspace', delete: 'Delete', arrowup: 'ArrowUp', arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight', home: 'Home', end: 'End', pageup: 'PageUp', pagedown: 'PageDown' };

const QUOTE = /^\s*(?:"([^"]*)"|“([^”]*)”|'([^']*)'|‘([^’]*)’)\s*$/;

/** "X" → X; bare text is trimmed of trailing punctuation. */
export function unquote(s: string): string {
  const m = QUOTE.exec(s);
  if (m) return m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
  return s.trim().replace(/[.!;:,]+$/, '').trim();
}

function isQuoted(s: string): boolean {
  return QUOTE.test(s);
}

const ROLE_NOUNS = /\s+(?:button|btn|link|hyperlink|checkbox|check box|tick box|radio button|radio|dropdown|drop-down|select|select box|combobox|combo box|field|input|text ?box|text ?area|textarea|box|tab|menu item|menuitem|heading|title|option|switch|toggle|icon|image|logo)\s*$/i;
const CONTAINER_NOUNS = /\s+(?:card|row|item|tile|section|panel|list item|entry|box|block|form|dialog|modal|area|region|column|cell)\s*$/i;

/** "the Add to cart button in the Blue Mug card" → phrase, role, scope. */
export function parseTarget(raw: string, defaultRole: AriaRole | null = null): TargetSpec {
  let s = raw.trim().replace(/[.!]+$/, '');
  let scope: string | undefined;
  // Scope only after a quoted name or with "in the / within / inside / for the": "Log in" keeps its "in".
  const sm = /^(.*?)\s+(?:(?:that is |which is )?(?:in|on|inside|within|under|for|of) (?:the |a |an )|inside |within )(.+)$/i.exec(s);
  if (sm && sm[1].trim()) {
    s = sm[1];
    scope = unquote(sm[2].replace(CONTAINER_NOUNS, '').replace(/^(?:the|a|an)\s+/i, ''));
  }
  const hint = roleHintFor(s) ?? defaultRole;
  s = s.replace(/^(?:the|a|an|on)\s+/i, '');
  if (!isQuoted(s)) s = s.replace(ROLE_NOUNS, '');
  else s = s.trim();
  // "the "Log in" button" → the quoted part is the name.
  const quoted = /"([^"]+)"|“([^”]+)”/.exec(s);
  const phrase = quoted ? (quoted[1] ?? quoted[2]) : unquote(s);
  return { phrase, role: hint, ...(scope ? { scope } : {}) };
}

function assertionIntent(body: string): Intent {
  let s = body.trim().replace(/[.!]+$/, '');
  s = s.replace(/^(?:that|if|whether)\s+/i, '').replace(/^:\s*/, '');
  let m: RegExpExecArray | null;
  // URL and title.
  if ((m = /^(?:the\s+)?(?:page\s+|current\s+)?url\s+(?:is|equals|should be|=)\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'url', op: 'is', value: unquote(m[1]) } };
  if ((m = /^(?:the\s+)?(?:page\s+|current\s+)?url\s+(?:contains|includes|has|ends with|matches)\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'url', op: 'contains', value: unquote(m[1]) } };
  if ((m = /^(?:the\s+)?(?:page\s+)?title\s+(?:is|equals|should be)\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'title', op: 'is', value: unquote(m[1]) } };
  if ((m = /^(?:the\s+)?(?:page\s+)?title\s+(?:contains|includes|has)\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'title', op: 'contains', value: unquote(m[1]) } };
  // Negative visibility.
  if ((m = /^(.+?)\s+(?:is|are)\s+(?:not\s+(?:visible|shown|displayed|present|on the page)|hidden|gone|no longer (?:visible|shown))$/i.exec(s))) return { kind: 'assert', check: { type: 'text_hidden', text: unquote(m[1]) } };
  if ((m = /^(.+?)\s+(?:disappears|has disappeared|is gone)$/i.exec(s))) return { kind: 'assert', check: { type: 'text_hidden', text: unquote(m[1]) } };
  if ((m = /^(?:the\s+)?page\s+(?:does not|doesn't)\s+(?:show|contain|display|say)\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'text_hidden', text: unquote(m[1]) } };
  // Element state / value.
  if ((m = /^(.+?)\s+(?:is|are)\s+(checked|unchecked|not checked|enabled|disabled|selected|ticked)$/i.exec(s))) {
    const st = m[2].toLowerCase();
    const state = st === 'not checked' ? 'unchecked' : st === 'selected' || st === 'ticked' ? 'checked' : (st as 'checked');
    return { kind: 'assert', check: { type: 'element_state', target: parseTarget(m[1]), state } };
  }
  if ((m = /^(.+?)\s+(?:has|has the)\s+value\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'element_value', target: parseTarget(m[1], 'textbox'), value: unquote(m[2]) } };
  // Positive visibility.
  if ((m = /^(.+?)\s+(?:is|are)\s+(?:visible|shown|displayed|present|on the page|on screen)$/i.exec(s))) return { kind: 'assert', check: { type: 'text_visible', text: unquote(m[1]) } };
  if ((m = /^(.+?)\s+(?:appears|is showing)$/i.exec(s))) return { kind: 'assert', check: { type: 'text_visible', text: unquote(m[1]) } };
  if ((m = /^(?:the\s+)?(?:page|screen)\s+(?:shows|displays|contains|says|has|reads)\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'text_visible', text: unquote(m[1]) } };
  if ((m = /^(?:i|you|we)\s+(?:can\s+)?see\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'text_visible', text: unquote(m[1]) } };
  if ((m = /^there\s+is\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'text_visible', text: unquote(m[1]) } };
  // Element text: "the cart link shows "Cart (1)"", "the Total contains $25".
  if ((m = /^(.+?)\s+(?:contains|shows|says|reads|displays|has text|includes|equals|is)\s+(.+)$/i.exec(s))) {
    return { kind: 'assert', check: { type: 'element_text', target: parseTarget(m[1]), text: unquote(m[2]) } };
  }
  // A bare quoted text: it is on the page.
  if (isQuoted(s)) return { kind: 'assert', check: { type: 'text_visible', text: unquote(s) } };
  return { kind: 'unknown', reason: `it is an assertion, but not one of the forms the rules planner checks` };
}

/** Interpret one step. Pure: unit-tested without a browser. */
export function interpret(step: string): Intent {
  const s = step.trim().replace(/^[*_`]+|[*_`]+$/g, '').trim();
  let m: RegExpExecArray | null;
  if (isAssertionStep(s)) {
    return assertionIntent(s.replace(/^(?:verify|assert|confirm|ensure|expect|make sure|check)\b\s*:?\s*/i, ''));
  }
  if ((m = /^(?:go|navigate|browse)\s+back$/i.exec(s)) || /^back$/i.test(s)) return { kind: 'back' };
  if (/^(?:go\s+)?forward$/i.test(s)) return { kind: 'forward' };
  if (/^(?:reload|refresh)(?:\s+the\s+page)?$/i.test(s)) return { kind: 'reload' };
  if ((m = /^(?:go to|open|navigate to|visit|load|browse to)\s+(.+)$/i.exec(s))) {
    const arg = unquote(m[1].replace(/^the\s+(?:url|page|address)\s+/i, ''));
    if (/^(https?:\/\/|\/|\.\.?\/)|^[\w.-]+\.(html?|php|aspx?)\b|^about:blank$/i.test(arg)) return { kind: 'navigate', url: arg };
    // "Open the cart": not a URL, a link or button to follow.
    return { kind: 'click', target: parseTarget(m[1]) };
  }
  // Dialogs (alert, confirm, prompt) the last action opened.
  if ((m = /^(accept|dismiss|cancel|close)\s+(?:the\s+)?(?:dialog|alert|prompt|confirm(?:ation)?|pop-?up)(?:\s+(?:with|typing|answering)\s+(.+))?$/i.exec(s))) {
    return { kind: 'dialog', accept: /^accept$/i.test(m[1]), ...(m[2] ? { promptText: unquote(m[2]) } : {}) };
  }
  if ((m = /^(?:answer|fill)\s+(?:the\s+)?prompt\s+with\s+(.+)$/i.exec(s))) return { kind: 'dialog', accept: true, promptText: unquote(m[1]) };
  if ((m = /^log\s*in\s+as\s+(.+?)\s+(?:with|using)\s+(?:the\s+)?(?:password\s+)?(.+)$/i.exec(s))) return { kind: 'login', user: unquote(m[1]), password: unquote(m[2]) };
  if ((m = /^add\s+(?:the\s+|a\s+|an\s+|one\s+)?(.+?)\s+to\s+(?:the\s+|my\s+)?(?:cart|basket|bag)$/i.exec(s))) {
    return { kind: 'click', target: { phrase: 'Add to cart', role: 'button', scope: unquote(m[1]) } };
  }
  if ((m = /^wait\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)$/i.exec(s)) || (m = /^wait\s+for\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)$/i.exec(s))) {
    const n = Number(m[1]);
    return { kind: 'wait_time', ms: Math.round(/^ms|milli/i.test(m[2]) ? n : n * 1000) };
  }
  if (/^wait\s+(?:for\s+)?(?:the\s+)?(?:page|network|app|ui|screen)?\s*(?:to\s+)?(?:load|settle|be stable|stabilize|stabilise|finish loading|be idle|idle)(?:\s+(?:to\s+)?(?:load|settle))?$/i.test(s) || /^wait\s+for\s+(?:the\s+)?page$/i.test(s)) return { kind: 'wait_stable' };
  if ((m = /^wait\s+(?:for|until)\s+(.+?)\s+(?:to\s+disappear|disappears|is gone|to be gone|to go away)$/i.exec(s))) return { kind: 'wait_gone', text: unquote(m[1]) };
  if ((m = /^wait\s+(?:for|until)\s+(.+?)(?:\s+(?:to\s+appear|appears|is visible|to be visible|to show))?$/i.exec(s))) return { kind: 'wait_text', text: unquote(m[1]) };
  if ((m = /^scroll\s+(?:the page\s+)?(?:to the\s+)?(up|down|top|bottom)$/i.exec(s))) return { kind: 'scroll', direction: m[1].toLowerCase() as 'up' };
  if ((m = /^press\s+(?:the\s+)?["“]?([A-Za-z0-9+]+)["”]?(?:\s+key)?(?:\s+(?:in|on|into)\s+(.+))?$/i.exec(s))) {
    const key = m[1];
    const known = KEYS.has(key.toLowerCase()) || /^(?:(?:Control|Ctrl|Shift|Alt|Meta|ControlOrMeta)\+)+\w+$/i.test(key) || /^[A-Za-z0-9]$/.test(key);
    if (known) return { kind: 'press', key: KEY_NAMES[key.toLowerCase()] ?? key.replace(/^ctrl\+/i, 'Control+'), ...(m[2] ? { target: parseTarget(m[2]) } : {}) };
  }
  if ((m = /^(?:select|choose|pick)\s+(.+?)\s+(?:in|from|for)\s+(.+)$/i.exec(s))) return { kind: 'select', value: unquote(m[1]), target: parseTarget(m[2], 'combobox') };
  if ((m = /^(?:type|enter|input|write|put)\s+(.+?)\s+(?:into|in|in to)\s+(.+)$/i.exec(s))) return { kind: 'fill', value: unquote(m[1]), target: parseTarget(m[2], 'textbox') };
  if ((m = /^fill\s+(?:in\s+|out\s+)?(.+?)\s+with\s+(.+)$/i.exec(s))) return { kind: 'fill', value: unquote(m[2]), target: parseTarget(m[1], 'textbox') };
  if ((m = /^set\s+(.+?)\s+to\s+(.+)$/i.exec(s))) return { kind: 'fill', value: unquote(m[2]), target: parseTarget(m[1], 'textbox') };
  if ((m = /^(?:uncheck|untick|deselect|clear the checkbox)\s+(.+)$/i.exec(s))) return { kind: 'uncheck', target: parseTarget(m[1], 'checkbox') };
  if ((m = /^(?:check|tick|accept)\s+(.+)$/i.exec(s))) return { kind: 'check', target: parseTarget(m[1], 'checkbox') };
  if ((m = /^hover\s+(?:over\s+)?(.+)$/i.exec(s))) return { kind: 'hover', target: parseTarget(m[1]) };
  if ((m = /^(?:click|tap|press|hit|select|choose|follow|submit|double[- ]click)\s+(?:on\s+)?(.+)$/i.exec(s))) return { kind: 'click', target: parseTarget(m[1]) };
  return { kind: 'unknown', reason: 'no rule matches its wording' };
}

// --- Matching a target on the snapshot ----------------------------------------------

interface Flat {
  node: AriaElement;
  ref: string;
  ancestors: AriaElement[];
}

function flatten(nodes: AriaNode[], ancestors: AriaElement[] = [], out: Flat[] = []): Flat[] {
  for (const n of nodes) {
    if (!isElement(n)) continue;
    if (n.ref) out.push({ node: n, ref: n.ref, ancestors });
    flatten(n.children ?? [], [...ancestors, n], out);
  }
  return out;
}

const textCache = new WeakMap<AriaElement, string>();
function subtreeText(n: AriaElement): string {
  let t = textCache.get(n);
  if (t !== undefined) return t;
  const parts: string[] = [];
  if (n.name) parts.push(n.name);
  for (const c of n.children ?? []) parts.push(typeof c === 'string' ? c : subtreeText(c));
  t = parts.join(' ').replace(/\s+/g, ' ').toLowerCase();
  textCache.set(n, t);
  return t;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

const ROLE_FAMILY: Partial<Record<AriaRole, string[]>> = {
  textbox: ['textbox', 'searchbox', 'combobox', 'spinbutton'],
  searchbox: ['searchbox', 'textbox', 'combobox'],
  combobox: ['combobox', 'listbox'],
  checkbox: ['checkbox', 'switch', 'radio', 'menuitemcheckbox'],
  radio: ['radio'],
  button: ['button'],
  link: ['link'],
};
const INTERACTIVE = new Set(['button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'option', 'spinbutton', 'slider', 'listbox', 'treeitem']);

export type Match = { ref: string; node: AriaElement } | { ambiguous: { ref: string; role: string; name?: string; context: string }[] } | null;

function nodeName(f: Flat): string {
  if (f.node.name) return f.node.name;
  return (f.node.children ?? []).filter((c): c is string => typeof c === 'string').join(' ');
}

/** Role + name on the snapshot tree; a scope keeps only elements inside the container that mentions it. */
export function matchTarget(tree: AriaNode[], t: TargetSpec, opts: { interactiveOnly?: boolean } = {}): Match {
  const all = flatten(tree);
  const phrase = norm(t.phrase);
  if (!phrase) return null;
  const family = t.role ? ROLE_FAMILY[t.role] ?? [t.role] : null;
  const tiers: Flat[][] = [[], [], []];
  for (const f of all) {
    if (family && !family.includes(f.node.role)) continue;
    if (!family && opts.interactiveOnly && !INTERACTIVE.has(f.node.role)) continue;
    const name = norm(nodeName(f));
    if (!name) continue;
    if (name === phrase) tiers[0].push(f);
    else if (name.startsWith(phrase) || name.endsWith(phrase)) tiers[1].push(f);
    else if (name.includes(phrase)) tiers[2].push(f);
  }
  for (const tier of tiers) {
    let cands = tier;
    if (!cands.length) continue;
    if (t.scope) {
      const scope = norm(t.scope);
      cands = cands.filter((c) => {
        // The nearest container that mentions the scope must hold this candidate only.
        for (let i = c.ancestors.length - 1; i >= 0; i--) {
          const a = c.ancestors[i];
          if (subtreeText(a).includes(scope)) return cands.filter((o) => o.ancestors.includes(a)).length === 1;
        }
        return false;
      });
      if (!cands.length) continue;
    }
    // Interactive elements beat static text with the same name.
    if (cands.length > 1) {
      const inter = cands.filter((c) => INTERACTIVE.has(c.node.role));
      if (inter.length) cands = inter;
    }
    if (cands.length === 1) return { ref: cands[0].ref, node: cands[0].node };
    return {
      ambiguous: cands.slice(0, 10).map((c) => ({
        ref: c.ref,
        role: c.node.role,
        ...(c.node.name ? { name: c.node.name } : {}),
        context: (c.ancestors.slice().reverse().find((a) => subtreeText(a).length > norm(nodeName(c)).length + 3) ? subtreeText(c.ancestors.slice().reverse().find((a) => subtreeText(a).length > norm(nodeName(c)).length + 3)!) : '').slice(0, 80),
      })),
    };
  }
  return null;
}

function firstFillable(n: AriaElement): string | null {
  for (const c of n.children ?? []) {
    if (!isElement(c)) continue;
    if (c.ref && ['textbox', 'searchbox', 'spinbutton'].includes(c.role)) return c.ref;
    const d = firstFillable(c);
    if (d) return d;
  }
  return null;
}

// --- Executing ----------------------------------------------------------------------

export class RulesPlanner implements Planner {
  readonly name = 'rules';

  async runCase(c: PlanCase, tools: CaseTools): Promise<void> {
    for (const step of c.steps) {
      const ok = await this.runStep(step, tools);
      if (!ok) {
        tools.complete(false, `Step ${step.index} failed: ${step.text}`);
        return;
      }
    }
    tools.complete(true, `All ${c.steps.length} steps done.`);
  }

  /** Run one plan step; false when it failed (the case stops there). */
  async runStep(step: PlanStep, tools: CaseTools): Promise<boolean> {
    const ask: AskContext = { planStep: step.index, asked: step.text, secretParams: secretNames(step) };
    const role = step.role;
    // Steps outside the page (the run's inbox, HTTP checks) first.
    const outside = interpretMailStep(step.resolved);
    if (outside) return runMailStep(outside, step, tools, ask);
    // {{EMAIL}}: the run's inbox address, known once the inbox exists.
    let text = step.resolved;
    if (text.match(EMAIL_VAR)) {
      try {
        text = await tools.expandEmail(text);
      } catch (err) {
        await tools.fail(role, ask, errorOf(err));
        return false;
      }
    }
    const intent = interpret(text);
    switch (intent.kind) {
      case 'unknown':
        await tools.fail(role, ask, {
          code: 'step_not_understood',
          message: `The rules planner could not interpret step ${step.index} ("${step.text}"): ${intent.reason}. It understands: ${UNDERSTOOD}. Reword the step, or run with the anthropic or openai planner.`,
          details: { planStep: step.index, line: step.line },
        });
        return false;
      case 'navigate':
        return (await tools.act(role, { action: 'navigate', url: intent.url }, ask)).ok;
      case 'back':
      case 'forward':
      case 'reload':
        return (await tools.act(role, { action: intent.kind }, ask)).ok;
      case 'wait_stable':
        await tools.waitForStable(role, ask);
        return true;
      case 'dialog':
        return (await tools.act(role, { action: 'handle_dialog', accept: intent.accept, ...(intent.promptText !== undefined ? { promptText: intent.promptText } : {}) }, ask)).ok;
      case 'wait_text':
        return (await tools.act(role, { action: 'wait_for', text: intent.text }, ask)).ok;
      case 'wait_gone':
        return (await tools.act(role, { action: 'wait_for', textGone: intent.text }, ask)).ok;
      case 'wait_time':
        return (await tools.act(role, { action: 'wait_for', time: Math.min(intent.ms, 60_000) }, ask)).ok;
      case 'scroll':
        return (await tools.act(role, { action: 'scroll', direction: intent.direction }, ask)).ok;
      case 'press': {
        if (!intent.target) return (await tools.act(role, { action: 'press', key: intent.key }, ask)).ok;
        const ref = await this.find(tools, role, intent.target, ask, 'press');
        return ref !== null && (await tools.act(role, { action: 'press', key: intent.key, ...ref }, ask)).ok;
      }
      case 'click':
      case 'hover':
      case 'check':
      case 'uncheck': {
        const ref = await this.find(tools, role, intent.target, ask, intent.kind);
        return ref !== null && (await tools.act(role, { action: intent.kind, ...ref }, ask)).ok;
      }
      case 'select': {
        const ref = await this.find(tools, role, intent.target, ask, 'select');
        return ref !== null && (await tools.act(role, { action: 'select', value: intent.value, ...ref }, ask)).ok;
      }
      case 'fill': {
        const ref = await this.find(tools, role, intent.target, ask, 'fill');
        if (ref === null) return false;
        // A split input (one box per character): type into its first box, key by key,
        // so the page moves the focus along as it does for a person.
        if ('ref' in ref && ref.group) return (await tools.act(role, { action: 'type', ref: ref.ref, text: intent.value }, ask)).ok;
        return (await tools.act(role, { action: 'fill', value: intent.value, ...('ref' in ref ? { ref: ref.ref } : { description: ref.description }) }, ask)).ok;
      }
      case 'login': {
        const user = await this.find(tools, role, { phrase: 'user', role: 'textbox' }, ask, 'fill', [{ phrase: 'email', role: 'textbox' }, { phrase: 'login', role: 'textbox' }]);
        if (!user || !(await tools.act(role, { action: 'fill', value: intent.user, ...strip(user) }, ask)).ok) return false;
        const pass = await this.find(tools, role, { phrase: 'password', role: 'textbox' }, ask, 'fill');
        if (!pass || !(await tools.act(role, { action: 'fill', value: intent.password, ...strip(pass) }, ask)).ok) return false;
        const btn = await this.find(tools, role, { phrase: 'log in', role: 'button' }, ask, 'click', [{ phrase: 'sign in', role: 'button' }, { phrase: 'login', role: 'button' }]);
        return btn !== null && (await tools.act(role, { action: 'click', ...strip(btn) }, ask)).ok;
      }
      case 'assert': {
        const check = intent.check;
        if ('target' in check) {
          const ref = await this.find(tools, role, check.target, ask, 'assert', [], true);
          if (ref === null) {
            // No such element: for "X shows Y", the page showing Y is the fact we can check.
            if (check.type === 'element_text' && check.text) {
              const rec = await tools.assert(role, { type: 'text_visible', text: check.text }, { ...ask, description: step.text });
              return rec.passed;
            }
            return false;
          }
          const target = 'ref' in ref ? { ref: ref.ref } : { description: ref.description };
          const spec: CheckSpec = check.type === 'element_text'
            ? { type: 'element_text', ...target, text: check.text! }
            : check.type === 'element_state'
              ? { type: 'element_state', ...target, state: check.state! }
              : { type: 'element_value', ...target, value: check.value! };
          const rec = await tools.assert(role, spec, { ...ask, description: step.text });
          return rec.passed;
        }
        const rec = await tools.assert(role, check, { ...ask, description: step.text });
        return rec.passed;
      }
    }
  }

  /**
   * Find the element on the live snapshot; retry while the page settles (content that
   * arrives after load), then fall back to the description ladder. Ambiguity is a
   * failed step that lists the candidates and says how to scope the step.
   */
  private async find(
    tools: CaseTools, role: string, target: TargetSpec, ask: AskContext, action: string, alternatives: TargetSpec[] = [], quiet = false,
  ): Promise<{ ref: string; group?: boolean } | { description: string } | null> {
    const deadline = Date.now() + Math.max(1500, tools.settings.describeWaitMs + 1000);
    let ambiguous: Match = null;
    for (let attempt = 0; ; attempt++) {
      const snap = await tools.snapshot(role, 1_000_000);
      for (const t of [target, ...alternatives]) {
        const m = matchTarget(snap.tree, t, { interactiveOnly: action !== 'assert' });
        if (m && 'ref' in m) {
          if (action === 'fill' && !['textbox', 'searchbox', 'combobox', 'spinbutton'].includes(m.node.role)) {
            const inner = firstFillable(m.node);
            if (inner) return { ref: inner, group: true };
          }
          return { ref: m.ref };
        }
        if (m && !ambiguous) ambiguous = m;
      }
      // Without a role hint, a group or text with that name (the OTP box group) still counts.
      if (action === 'fill' && attempt === 0) {
        const m = matchTarget(snap.tree, { ...target, role: null });
        if (m && 'ref' in m) {
          const inner = ['textbox', 'searchbox', 'combobox', 'spinbutton'].includes(m.node.role) ? m.ref : firstFillable(m.node);
          if (inner) return { ref: inner, group: inner !== m.ref };
        }
      }
      if (ambiguous || Date.now() >= deadline) break;
      await tools.waitForStable(role, ask, { quietMs: 150, timeoutMs: 1500, record: false });
      ambiguous = null;
    }
    if (ambiguous && 'ambiguous' in ambiguous) {
      await tools.fail(role, ask, {
        code: 'ambiguous_target',
        message: `Step ${ask.planStep} ("${ask.asked}"): "${target.phrase}" matches ${ambiguous.ambiguous.length} elements${target.scope ? ` in "${target.scope}"` : ''}. Say which one, e.g. 'Click "${target.phrase}" in the "<text of its card>" card'.`,
        details: { candidates: ambiguous.ambiguous },
      }, action);
      return null;
    }
    if (quiet && action === 'assert') return null;
    // Not on the snapshot by role + name: the description ladder (label, placeholder, text).
    const description = `${target.phrase}${target.role ? ` ${target.role}` : ''}`;
    if (target.scope) {
      await tools.fail(role, ask, { code: 'target_not_found', message: `Step ${ask.planStep} ("${ask.asked}"): no "${target.phrase}" inside something that mentions "${target.scope}".`, details: { phrase: target.phrase, scope: target.scope, role: target.role } }, action);
      return null;
    }
    return { description };
  }
}

function strip(r: { ref: string; group?: boolean } | { description: string }): { ref: string } | { description: string } {
  return 'ref' in r ? { ref: r.ref } : { description: r.description };
}

/** Variables whose names look secret, used by this step (kept out of exports). */
function secretNames(step: PlanStep): string[] {
  const names = [...step.text.matchAll(/\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g)].map((m) => m[1]);
  return names.filter((n) => /pass|secret|token|key|otp|pin/i.test(n));
}

export { CaseStop };
