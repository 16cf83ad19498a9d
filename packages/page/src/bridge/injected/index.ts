// Entry of the in-page bridge. Evaluated once per frame in a CDP isolated world
// (Page.createIsolatedWorld), where page scripts can neither see nor patch it.
//
// Elements reach this world in one of two ways:
//  - caught: the host resolves a ref or selector with Playwright and, in the page's
//    main world, dispatches a CustomEvent with a random per-page name on each element;
//    the capture listener below receives the very element (events are DOM-level, so
//    they cross worlds) and files it under the call's slot;
//  - by object id: the host resolves a node by backendNodeId into this world
//    (DOM.resolveNode) and passes it as an argument;
//  - marked (locator ops only, see locators.ts): the element Playwright's latest
//    utility-world read marked, checked against the text that read returned.
// Every analysis is then one call of run(op, args) returning plain facts.

import { BridgeError, anchors, container, pattern, type PathRef } from './explore.js';
import { OPS as INSPECT_OPS } from './inspect.js';
import { serializeFrame } from './serialize.js';
import { LOCATOR_OPS } from './locators.js';
import { bestSelector } from './selectors.js';
import { resetCallCaches } from './dom.js';
import { missedBy, readWatch, startWatch } from './effect.js';

interface Caught {
  tag: string;
  el: Element;
}

const caught = new Map<string, Caught[]>();
/** runWait() calls waiting for their slot's hand-off (issued concurrently with it). */
const waiters = new Map<string, () => void>();

function install(eventName: string): boolean {
  window.addEventListener(
    eventName,
    (e) => {
      const detail = (e as CustomEvent).detail;
      if (typeof detail !== 'string') return;
      const [slot, tag] = detail.split('\u0001');
      const el = e.composedPath()[0];
      if (!el || (el as Node).nodeType !== 1) return;
      let list = caught.get(slot);
      if (!list) {
        list = [];
        caught.set(slot, list);
        // Slots of calls that failed half-way must not pile up.
        if (caught.size > 64) caught.delete(caught.keys().next().value as string);
      }
      list.push({ tag: tag ?? '', el: el as Element });
      waiters.get(slot)?.();
      // The element's own listeners have no business with this event.
      e.stopImmediatePropagation();
    },
    true,
  );
  return true;
}

type Args = Record<string, any> & { slot?: string };

function take(slot: string | undefined): Caught[] | null {
  if (!slot) return null;
  const list = caught.get(slot);
  if (!list) return null;
  caught.delete(slot);
  return list;
}

function targetOf(list: Caught[]): Element {
  return list.find((c) => c.tag === 'target')!.el;
}

/** Ops whose caught list must hold the target itself (other worlds may only hold path refs). */
const TARGET_OPS = new Set(['effectStart', 'container', 'pattern', 'anchors', 'locatorFacts', 'locatorCandidates', 'visibility', 'position', 'state', 'attributes', 'text', 'inspectDom']);

const OPS: Record<string, (args: Args, list: Caught[] | null, extra: unknown[]) => unknown> = {
  container: (a, list) => {
    const target = targetOf(list!);
    const order: string[] = a.pathRefs ?? [];
    const path: PathRef[] = [];
    for (const ref of order) {
      const hit = list!.find((c) => c.tag === ref);
      if (hit) path.push({ ref, el: hit.el });
    }
    return container(target, path, { maxText: a.maxText ?? 80 });
  },
  pattern: (a, list) => pattern(targetOf(list!), a.level, a as any),
  anchors: (a, list) => anchors(targetOf(list!), a.level, a as any),
  serialize: (a, _list, extra) => serializeFrame(a as any, extra as Element[]),
  ...INSPECT_OPS,
  ...LOCATOR_OPS,
};

/** Ops that work on the whole document and need no caught element. */
const DOCUMENT_OPS = new Set(['effectStart', 'effectRead', 'serialize', 'testIds', 'inspectDom', 'ping', 'selectorFor', 'frameOwner', 'locatorTargetMarked', 'locatorCandidatesMarked']);

function run(op: string, args: Args, ...extra: unknown[]): unknown {
  const needsTarget = args.slot !== undefined || !DOCUMENT_OPS.has(op);
  const list = needsTarget ? take(args.slot) : null;
  if (needsTarget && (!list || list.length === 0)) return { __miss: true };
  // This world caught only the iframe-side path refs of a target that lives in a child frame.
  if (list && TARGET_OPS.has(op) && !list.some((c) => c.tag === 'target')) return { __miss: true };
  const fn = OPS[op];
  if (!fn) return { __error: { code: 'internal_error', message: `unknown bridge op ${op}` } };
  resetCallCaches();
  try {
    return fn(args, list, extra);
  } catch (err) {
    if (err instanceof BridgeError) return { __error: { code: err.code, message: err.message, details: err.details } };
    const e = err as Error;
    if (e && e.name === 'SyntaxError') return { __error: { code: 'invalid_selector', message: e.message } };
    return { __error: { code: 'internal_error', message: `bridge ${op}: ${e?.message ?? String(err)}` } };
  }
}

OPS.ping = () => ({ ok: true, url: location.href });
// The action watch (effect.ts): started on the target when there is one (its clicks are
// checked against it), else on the document alone.
OPS.effectStart = (a, list) => startWatch(String(a.watchId), list ? (list.find((c) => c.tag === 'target')?.el ?? null) : null);
OPS.effectRead = (a) => readWatch(String(a.watchId), a.stop === true);

/**
 * Elements of a slot, in hand-off order (tag "r<i>" or "<tag>#<i>"), as live objects: the
 * host turns them into node ids to read the refs Playwright gave them (targeting/selector.ts).
 */
function caughtElements(slot: string): (Element | null)[] {
  const list = take(slot) ?? [];
  const index = (tag: string) => Number(/(\d+)$/.exec(tag)?.[1] ?? 0);
  const out: (Element | null)[] = [];
  for (const c of list) out[index(c.tag)] = c.el;
  for (let i = 0; i < out.length; i++) if (!out[i]) out[i] = null;
  return out;
}
OPS.selectorFor = (_a, _l, extra) => bestSelector(extra[0] as Element);

/**
 * run() once the slot's hand-off has arrived, waiting up to `ms` for it: the host sends
 * this call and the hand-off at the same time (one round trip instead of two). A world
 * the element does not live in answers a miss when the wait ends.
 */
function runWait(op: string, args: Args, ms: number): unknown {
  const slot = args.slot;
  if (!slot || caught.has(slot)) return run(op, args);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiters.delete(slot);
      resolve({ __miss: true });
    }, Math.min(Math.max(ms, 0), 5000));
    waiters.set(slot, () => {
      waiters.delete(slot);
      clearTimeout(timer);
      resolve(run(op, args));
    });
  });
}

(globalThis as any).__ariadne = { install, run, runWait, caughtElements, missedBy };
