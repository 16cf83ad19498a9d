import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { Bridge, type World } from '../bridge/bridge.js';
import { resolveInspectTarget, type TargetSpec } from '../bridge/targets.js';
import { clip, dropTail, fitToBudget, tokensOf } from '../explore/budget.js';
import { frameChain } from './frames.js';
import { newListId, refsForLocators, refsOfListed } from '../targeting/selector.js';

// Seed 002's inspection tools over HTTP. Each takes a ref or a selector (the testid:
// shorthands, CSS, Playwright text selectors), runs one in-page call in the target's
// frame world, and answers facts, as JSON or as compact text with ✓/✗ symbols.

export type InspectFormat = 'json' | 'text';

export interface InspectOptions extends TargetSpec {
  format?: InspectFormat;
  maxTokens?: number;
}

interface Envelope {
  format: InspectFormat;
  tokens: number;
  truncated: boolean;
  ref?: string;
  selector?: string;
  /** Matches of the selector (the first one is inspected). */
  matches?: number;
  frame?: { url: string; frameSelector: string };
  text?: string;
  [k: string]: unknown;
}

const DEFAULT_TOKENS = 2000;

async function frameInfo(bridge: Bridge, world: World): Promise<Envelope['frame'] | undefined> {
  if (!world.parentId) return undefined;
  const chain = await frameChain(bridge, world).catch(() => [] as string[]);
  return { url: world.url, frameSelector: chain.join(' >> ') };
}

async function onTarget<T extends Record<string, unknown>>(state: PageState, opts: InspectOptions, op: string, args: Record<string, unknown> = {}) {
  const bridge = Bridge.for(state);
  const target = await resolveInspectTarget(state, opts);
  const { result, world } = await bridge.runOnCaught<T>([{ locator: target.locator, tag: 'target', single: true }], op, args);
  const head: Partial<Envelope> = {
    ...(target.ref ? { ref: target.ref } : {}),
    ...(target.selector !== undefined ? { selector: target.selector, matches: target.matches } : {}),
  };
  const frame = await frameInfo(bridge, world);
  if (frame) head.frame = frame;
  return { head, result, world };
}

function finish(body: Envelope, render: (b: Envelope) => string, maxTokens: number, steps: ((b: Envelope) => boolean)[] = []): Envelope {
  const text = body.format === 'text';
  const measure = (b: Envelope) => tokensOf(text ? render(b) : b);
  const fitted = fitToBudget(body, maxTokens, measure, steps);
  const out = fitted.value;
  out.truncated = fitted.truncated || out.truncated;
  if (text) {
    const t = render(out);
    return { format: 'text', tokens: tokensOf(t), truncated: out.truncated, ...(out.ref ? { ref: out.ref } : {}), ...(out.selector !== undefined ? { selector: out.selector, matches: out.matches } : {}), text: t };
  }
  out.tokens = tokensOf(out);
  out.tokens = tokensOf(out);
  return out;
}

const yes = (b: unknown) => (b ? '✓' : '✗');
const boxText = (b: { x: number; y: number; width: number; height: number }) => `@ (${b.x},${b.y}) ${b.width}x${b.height}px`;
const attrs = (a: Record<string, string> | undefined) => Object.entries(a ?? {}).map(([k, v]) => (k === 'id' ? `#${v}` : k === 'class' ? `.${v.split(' ').join('.')}` : `[${k}="${v}"]`)).join('');
const who = (b: Envelope) => (b.ref ? `ref ${b.ref}` : `"${b.selector}"${b.matches && b.matches > 1 ? ` (first of ${b.matches})` : ''}`);

// ---- dom ------------------------------------------------------------------------

export async function inspectDom(state: PageState, opts: InspectOptions & { maxChildren?: number; maxDepth?: number; includeHidden?: boolean }): Promise<Envelope> {
  const listId = newListId();
  const args = { maxChildren: opts.maxChildren ?? 20, maxDepth: opts.maxDepth ?? 5, includeHidden: !!opts.includeHidden, maxText: 80, listId };
  let head: Partial<Envelope> = {};
  let result: any;
  let world: World;
  if (opts.ref || opts.selector !== undefined) {
    ({ head, result, world } = await onTarget(state, opts, 'inspectDom', args));
  } else {
    state.assertNoDialog();
    const bridge = Bridge.for(state);
    world = await bridge.mainWorld();
    result = await bridge.call(world, 'inspectDom', args);
  }
  // Each child with the ref to act on it (null: Playwright gave it none, e.g. hidden).
  const refs = await refsOfListed(state, world, listId);
  for (const c of (result?.children ?? []) as { index: number; ref?: string }[]) {
    const r = refs[c.index];
    if (r) c.ref = r;
  }
  const body: Envelope = { format: opts.format ?? 'json', tokens: 0, truncated: false, ...head, ...result };
  return finish(body, renderDom, opts.maxTokens ?? DEFAULT_TOKENS, [
    (b) => {
      const list = b.children as any[];
      if (list.length <= 1) return false;
      const n = dropTail(list, 0.25);
      (b.omitted as any).children += n;
      return true;
    },
  ]);
}

function renderDom(b: Envelope): string {
  const e = b.element as any;
  const lines = [`DOM: <${e.tag}${attrs(e.attributes)}>${e.role ? ` | ${e.role}` : ''}`, boxText(e.box)];
  const kids = b.children as any[];
  const om = b.omitted as any;
  lines.push('', `Children (${kids.length} of ${b.semanticChildren}${b.skippedWrappers ? `, skipped ${b.skippedWrappers} wrappers` : ''}${om.hidden ? `, ${om.hidden} hidden` : ''}):`);
  let prev: any = null;
  for (const c of kids) {
    lines.push(`[${c.index}] <${c.tag}${attrs(c.attributes)}>${c.role && c.role !== c.tag ? ` | ${c.role}` : ''}${c.inShadowRoot ? ' (shadow)' : ''}${c.ref ? ` [ref=${c.ref}]` : ''}`);
    let geo = `    ${boxText(c.box)}`;
    if (prev) {
      const dx = c.box.x - (prev.box.x + prev.box.width);
      const dy = c.box.y - (prev.box.y + prev.box.height);
      const gap = [dx >= 0 ? `→${dx}px` : '', dy >= 0 ? `↓${dy}px` : ''].filter(Boolean).join(' ') || 'overlapping';
      geo += ` | gap from [${prev.index}]: ${gap}`;
    }
    lines.push(geo);
    if (c.text) lines.push(`    ${JSON.stringify(c.text)}`);
    lines.push(`    ${c.visible ? '✓ visible' : '✗ hidden'}${c.interactive ? ', ⚡ interactive' : ''}${c.childElements ? `, ${c.childElements} children` : ''}${c.depth > 1 ? `, ${c.depth - 1} wrappers deep` : ''}`);
    prev = c;
  }
  if (!kids.length) {
    lines.push('⚠ No semantic elements at this level.');
    if ((b.wrapperExamples as string[]).length) lines.push(`Wrappers found: ${(b.wrapperExamples as string[]).join(', ')}`);
  }
  if (om.children) lines.push(`… ${om.children} more semantic children (raise maxChildren or zoom in with selector/ref)`);
  if (b.layout) lines.push(`Layout: ${b.layout}`);
  return lines.join('\n');
}

// ---- test ids -------------------------------------------------------------------

export async function inspectTestIds(state: PageState, opts: { attributes?: string; limit?: number; format?: InspectFormat; maxTokens?: number }): Promise<Envelope> {
  state.assertNoDialog();
  const attributes = opts.attributes ? opts.attributes.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  for (const a of attributes ?? []) if (!/^[A-Za-z_][\w.:-]*$/.test(a)) throw new AppError('invalid_request', `"${a}" is not an attribute name.`, { field: 'attributes' });
  const bridge = Bridge.for(state);
  const results = await bridge.runInWorlds<any>('testIds', { attributes, limit: opts.limit ?? 100 });
  // Frames are listed after the main document, each group tagged with its frame URL.
  const byAttribute: Record<string, any[]> = {};
  const duplicates: any[] = [];
  const omitted: Record<string, number> = {};
  let total = 0;
  for (const { result, world } of results.sort((a, b) => Number(!!a.world.parentId) - Number(!!b.world.parentId))) {
    total += result.total;
    const frame = world.parentId ? world.url : undefined;
    for (const [attr, list] of Object.entries(result.byAttribute as Record<string, any[]>)) {
      byAttribute[attr] = [...(byAttribute[attr] ?? []), ...list.map((g) => (frame ? { ...g, frame } : g))];
    }
    for (const d of result.duplicates) duplicates.push(frame ? { ...d, frame } : d);
    for (const [attr, n] of Object.entries(result.omitted as Record<string, number>)) omitted[attr] = (omitted[attr] ?? 0) + n;
  }
  const body: Envelope = { format: opts.format ?? 'json', tokens: 0, truncated: false, total, byAttribute, duplicates, omitted };
  return finish(body, renderTestIds, opts.maxTokens ?? DEFAULT_TOKENS, [
    (b) => {
      const groups = b.byAttribute as Record<string, any[]>;
      const om = b.omitted as Record<string, number>;
      let changed = false;
      for (const [attr, list] of Object.entries(groups)) {
        if (list.length > 5) {
          const n = dropTail(list, 0.25);
          om[attr] = (om[attr] ?? 0) + n;
          changed = true;
        }
      }
      return changed;
    },
  ]);
}

function renderTestIds(b: Envelope): string {
  const groups = b.byAttribute as Record<string, any[]>;
  const om = b.omitted as Record<string, number>;
  const lines = [`Found ${b.total} test ids:`];
  for (const [attr, list] of Object.entries(groups)) {
    const distinct = list.length + (om[attr] ?? 0);
    lines.push('', `${attr} (${distinct} distinct):`);
    lines.push(`  ${list.map((g) => `${g.value}${g.count > 1 ? ` ×${g.count}` : ''}${g.visible === 0 ? ' (hidden)' : ''}${g.frame ? ` [frame ${g.frame}]` : ''}`).join(', ')}${om[attr] ? `, … ${om[attr]} more` : ''}`);
  }
  const d = b.duplicates as any[];
  if (d.length) lines.push('', `Duplicates: ${d.map((x) => `${x.value} ×${x.count}`).join(', ')}`);
  return lines.join('\n');
}

// ---- query ----------------------------------------------------------------------

export async function inspectQuery(state: PageState, opts: { selector: string; limit?: number; format?: InspectFormat; maxTokens?: number }): Promise<Envelope> {
  const bridge = Bridge.for(state);
  const target = await resolveInspectTarget(state, { selector: opts.selector }, { allowNone: true });
  const limit = opts.limit ?? 10;
  let elements: any[] = [];
  let frame: Envelope['frame'];
  if (target.matches > 0) {
    const { result, world } = await bridge.runOnCaught<any[]>([{ locator: target.all, tag: 'm', limit }], 'query', { maxText: 80 });
    elements = result;
    frame = await frameInfo(bridge, world);
    // Each match with the ref to act on it (matches are listed in document order, by index).
    const refs = await refsForLocators(state, { all: target.all, limit }).catch(() => [] as (string | null)[]);
    for (const e of elements) if (refs[e.index]) e.ref = refs[e.index];
  }
  const body: Envelope = {
    format: opts.format ?? 'json', tokens: 0, truncated: false,
    selector: opts.selector, resolvedSelector: target.resolvedSelector, matches: target.matches,
    elements, omitted: { elements: target.matches - elements.length },
    ...(frame ? { frame } : {}),
  };
  return finish(body, renderQuery, opts.maxTokens ?? DEFAULT_TOKENS, [
    (b) => {
      const list = b.elements as any[];
      if (list.length <= 1) return false;
      const n = dropTail(list, 0.25);
      (b.omitted as any).elements += n;
      return true;
    },
  ]);
}

function renderQuery(b: Envelope): string {
  const list = b.elements as any[];
  const lines = [`Found ${b.matches} element${b.matches === 1 ? '' : 's'} matching ${JSON.stringify(b.selector)}:`];
  for (const e of list) {
    lines.push('', `[${e.index}] <${e.tag}${attrs(e.attributes)}>${e.role && e.role !== e.tag ? ` | ${e.role}` : ''}${e.ref ? ` [ref=${e.ref}]` : ''}`, `    ${boxText(e.box)}`);
    if (e.text) lines.push(`    ${JSON.stringify(e.text)}`);
    lines.push(`    ${e.visible ? '✓ visible' : `✗ hidden (${(e.hiddenReasons ?? []).join(', ')})`}${e.visible && !e.inViewport ? ', outside viewport' : ''}${e.interactive ? ', ⚡ interactive' : ''}`);
  }
  lines.push('', `Showing ${list.length} of ${b.matches} matches`);
  return lines.join('\n');
}

// ---- single-element tools -----------------------------------------------------------

export async function inspectVisibility(state: PageState, opts: InspectOptions): Promise<Envelope> {
  const { head, result } = await onTarget<any>(state, opts, 'visibility');
  return finish({ format: opts.format ?? 'json', tokens: 0, truncated: false, ...head, ...result }, (b) => {
    const lines = [`Visibility: <${b.desc}> (${who(b)})`, ''];
    const pct = Math.round((b.viewportRatio as number) * 100);
    lines.push(`${b.visible ? '✓ visible' : '✗ hidden'}, ${b.inViewport ? (pct >= 100 ? '✓ in viewport' : `⚠ partly in viewport (${pct}% visible)`) : '✗ not in viewport'}`);
    lines.push(`opacity: ${b.opacity}, display: ${b.display}, visibility: ${b.visibility}`);
    const issues: string[] = [];
    if (!b.visible) issues.push(`✗ hidden: ${(b.hiddenReasons as string[]).join(', ')}`);
    if (b.clipped) issues.push(`✗ clipped by ${b.clippedBy} (${Math.round((b.visibleRatioInClip as number) * 100)}% left)`);
    if (b.covered) issues.push(`✗ covered by ${b.coveredBy}`);
    if (b.needsScroll) issues.push('⚠ needs scroll to bring fully into view');
    if (issues.length) lines.push('', 'Issues:', ...issues.map((i) => `  ${i}`));
    lines.push(boxText(b.box as any));
    return lines.join('\n');
  }, opts.maxTokens ?? DEFAULT_TOKENS);
}

export async function inspectPosition(state: PageState, opts: InspectOptions): Promise<Envelope> {
  const { head, result } = await onTarget<any>(state, opts, 'position');
  return finish({ format: opts.format ?? 'json', tokens: 0, truncated: false, ...head, ...result }, (b) =>
    `Position: <${b.desc}> (${who(b)})\n${boxText(b as any)}, ${b.inViewport ? '✓ in viewport' : '✗ not in viewport'}${b.frame ? ` (frame coordinates, ${(b.frame as any).frameSelector})` : ''}\npage: (${(b.page as any).x},${(b.page as any).y}), scroll: (${(b.scroll as any).x},${(b.scroll as any).y})`,
  opts.maxTokens ?? DEFAULT_TOKENS);
}

export async function inspectState(state: PageState, opts: InspectOptions): Promise<Envelope> {
  const { head, result } = await onTarget<any>(state, opts, 'state');
  return finish({ format: opts.format ?? 'json', tokens: 0, truncated: false, ...head, ...result }, (b) => {
    const flags = [`${yes(b.enabled)} enabled`, `${yes(b.editable)} editable`, `${yes(b.focused)} focused`, `${yes(b.visible)} visible`];
    if (b.checked !== undefined) flags.push(b.checked === 'mixed' ? '◐ mixed' : `${yes(b.checked)} checked`);
    if (b.selected !== undefined) flags.push(`${yes(b.selected)} selected`);
    if (b.required) flags.push('✓ required');
    if (b.readOnly) flags.push('✓ readOnly');
    if (b.ariaDisabled) flags.push('✓ aria-disabled');
    const extra = ['ariaExpanded', 'ariaPressed', 'ariaSelected', 'ariaInvalid'].filter((k) => b[k] !== undefined).map((k) => `${k}=${b[k]}`);
    const lines = [`State: <${b.desc}> (${who(b)})`, flags.join(', ')];
    if (extra.length) lines.push(extra.join(', '));
    if (b.value !== undefined) lines.push(`value: ${JSON.stringify(b.value)}${b.type ? ` (${b.type})` : ''}`);
    return lines.join('\n');
  }, opts.maxTokens ?? DEFAULT_TOKENS);
}

export async function inspectAttributes(state: PageState, opts: InspectOptions & { filter?: string }): Promise<Envelope> {
  const filter = opts.filter ? opts.filter.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  const { head, result } = await onTarget<any>(state, opts, 'attributes', { filter, maxValue: 500, maxAttributes: 200 });
  return finish({ format: opts.format ?? 'json', tokens: 0, truncated: false, ...head, ...result }, (b) => {
    const lines = [`Attributes: <${b.desc}> (${who(b)})`];
    for (const [title, group] of [['All', b.all], ['Data', b.data], ['ARIA', b.aria]] as const) {
      const entries = Object.entries(group as Record<string, string>);
      if (!entries.length) continue;
      lines.push('', `${title}:`, ...entries.map(([k, v]) => `  ${k}: ${v}`));
    }
    if (b.omitted) lines.push(`… ${b.omitted} more attributes`);
    return lines.join('\n');
  }, opts.maxTokens ?? DEFAULT_TOKENS, [
    (b) => {
      let changed = false;
      for (const g of [b.all, b.data, b.aria] as Record<string, string>[]) for (const [k, v] of Object.entries(g)) if (v.length > 80) { g[k] = clip(v, 80); changed = true; }
      return changed;
    },
  ]);
}

export async function inspectText(state: PageState, opts: InspectOptions & { maxChars?: number }): Promise<Envelope> {
  const maxChars = Math.min(opts.maxChars ?? 2000, (opts.maxTokens ?? 100_000) * 4);
  const { head, result } = await onTarget<any>(state, opts, 'text', { maxChars });
  return finish({ format: opts.format ?? 'json', tokens: 0, ...head, ...result, truncated: !!result.truncated }, (b) =>
    `${b.text || '(empty)'}\n(${b.length} characters${b.truncated ? `, first ${(b.text as string).length} shown` : ''})`,
  Number.MAX_SAFE_INTEGER);
}

// ---- frames ---------------------------------------------------------------------------

export async function inspectFrames(state: PageState, opts: { format?: InspectFormat; maxTokens?: number }): Promise<Envelope> {
  state.assertNoDialog();
  const bridge = Bridge.for(state);
  const worlds = await bridge.allWorlds();
  const byId = new Map(worlds.map((w) => [w.frameId, w]));
  const frames: any[] = [];
  const depthOf = (w: World): number => (w.parentId && byId.has(w.parentId) ? 1 + depthOf(byId.get(w.parentId)!) : 0);
  for (const w of worlds) {
    if (!w.parentId) continue;
    const parent = byId.get(w.parentId);
    if (!parent) continue;
    let facts: any = {};
    try {
      const owner = await bridge.frameOwner(w, parent);
      facts = await bridge.call(parent, 'frameOwner', {}, [owner]);
      await bridge.release(parent, [owner]);
    } catch {
      facts = {};
    }
    const chain = await frameChain(bridge, w).catch(() => []);
    frames.push({ index: frames.length, url: w.url, ...(w.name ? { name: w.name } : {}), depth: depthOf(w), frameSelector: chain.join(' >> '), ...facts });
  }
  const body: Envelope = { format: opts.format ?? 'json', tokens: 0, truncated: false, count: frames.length, frames, omitted: { frames: 0 } };
  return finish(body, (b) => {
    const list = b.frames as any[];
    const lines = [`Found ${b.count} iframe${b.count === 1 ? '' : 's'}:`];
    for (const f of list) {
      lines.push('', `${'  '.repeat(f.depth - 1)}[${f.index}] <${f.tag ?? 'iframe'}> ${f.frameSelector}${f.name ? ` name="${f.name}"` : ''}`);
      lines.push(`${'  '.repeat(f.depth - 1)}    src: ${f.src ?? f.url}${f.src && f.src !== f.url ? ` → ${f.url}` : ''}`);
      if (f.box) lines.push(`${'  '.repeat(f.depth - 1)}    ${boxText(f.box)}${f.title ? ` "${f.title}"` : ''}, ${f.visible ? '✓ visible' : '✗ hidden'}`);
    }
    if ((b.omitted as any).frames) lines.push(`… ${(b.omitted as any).frames} more`);
    return lines.join('\n');
  }, opts.maxTokens ?? DEFAULT_TOKENS, [
    (b) => {
      const list = b.frames as any[];
      if (list.length <= 1) return false;
      (b.omitted as any).frames += dropTail(list, 0.25);
      return true;
    },
  ]);
}
