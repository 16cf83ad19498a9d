import { randomBytes } from 'node:crypto';
import type { CDPSession, Frame, Locator, Page } from 'playwright-core';
import { AppError, type ErrorCode } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { BRIDGE_SOURCE } from './bundle.generated.js';

// Host side of the in-page bridge: one CDP session per page (plus one per
// out-of-process iframe), one isolated world per frame document, created lazily and
// re-created when the frame has navigated (new loaderId) or its context is gone.
// Page scripts cannot see the worlds; their globals and prototypes are pristine.

export interface World {
  frameId: string;
  loaderId: string;
  parentId?: string;
  url: string;
  name?: string;
  contextId: number;
  session: CDPSession;
}

interface FrameNode {
  frameId: string;
  loaderId: string;
  parentId?: string;
  url: string;
  name?: string;
  session: CDPSession;
}

/** A fact computed in the page came back as an error (bad level, bad selector...). */
interface BridgeErrorResult {
  __error: { code: string; message: string; details?: Record<string, unknown> };
}

const CALL = 'function(op, args, ...extra) { return globalThis.__ariadne.run(op, args, ...extra); }';
const CALL_WAIT = 'function(op, args, ms) { return globalThis.__ariadne.runWait(op, args, ms); }';
const CONTEXT_LOST = /Cannot find context|context was destroyed|Execution context|Could not find object|No frame|Frame with the given id|Target closed|Session closed|has been closed|detached/i;

export class BridgeContextLost extends Error {}

export interface HandOffItem {
  locator: Locator;
  tag: string;
  /** Exactly one element (a ref): resolved like an action would resolve it. */
  single?: boolean;
  /** Hand off at most this many matches (document order). */
  limit?: number;
  /** Nice to have: give up quickly when it does not resolve (a ref that went stale). */
  optional?: boolean;
}

const bridges = new WeakMap<Page, Bridge>();

export class Bridge {
  /** Random per page: page scripts cannot listen for the hand-off event without knowing it. */
  readonly eventName = `ariadne-${randomBytes(8).toString('hex')}`;
  private pageSessionP: Promise<CDPSession> | null = null;
  private readonly oopif = new WeakMap<Frame, { session: CDPSession | null; url: string }>();
  private readonly worlds = new Map<string, World>();
  private readonly creating = new Map<string, Promise<World>>();
  private slotSeq = 0;
  private closed = false;

  static for(state: PageState): Bridge {
    let b = bridges.get(state.page);
    if (!b) {
      b = new Bridge(state.page);
      bridges.set(state.page, b);
    }
    return b;
  }

  private constructor(readonly page: Page) {
    page.once('close', () => this.dispose());
  }

  private dispose(): void {
    this.closed = true;
    this.worlds.clear();
    const p = this.pageSessionP;
    this.pageSessionP = null;
    p?.then((s) => s.detach()).catch(() => {});
  }

  private pageSession(): Promise<CDPSession> {
    if (this.closed) throw new AppError('session_closed', 'The page is closed.');
    if (!this.pageSessionP) {
      this.pageSessionP = this.page.context().newCDPSession(this.page);
      this.pageSessionP.catch(() => { this.pageSessionP = null; });
    }
    return this.pageSessionP;
  }

  /** Frame tree across the page session and the sessions of out-of-process iframes. */
  async frameTree(): Promise<FrameNode[]> {
    const main = await this.pageSession();
    const out: FrameNode[] = [];
    const collect = async (session: CDPSession, parentOverride?: string) => {
      const { frameTree } = await session.send('Page.getFrameTree');
      const rec = (t: typeof frameTree, parentId?: string) => {
        out.push({ frameId: t.frame.id, loaderId: t.frame.loaderId, parentId: t.frame.parentId ?? parentId, url: t.frame.url, name: t.frame.name, session });
        for (const c of t.childFrames ?? []) rec(c, t.frame.id);
      };
      rec(frameTree, parentOverride);
    };
    await collect(main);
    const frames = this.page.frames();
    if (out.length < frames.length) {
      // Some frames live in other renderer processes: they need their own session.
      for (const f of frames) {
        if (f === this.page.mainFrame() || f.isDetached()) continue;
        const known = this.oopif.get(f);
        if (known && known.url === f.url()) {
          if (known.session) await collect(known.session).catch(() => this.oopif.delete(f));
          continue;
        }
        try {
          const session = await this.page.context().newCDPSession(f);
          this.oopif.set(f, { session, url: f.url() });
          const onDetach = (d: Frame) => {
            if (d !== f) return;
            this.page.off('framedetached', onDetach);
            session.detach().catch(() => {});
          };
          this.page.on('framedetached', onDetach);
          await collect(session);
        } catch {
          this.oopif.set(f, { session: null, url: f.url() });
        }
      }
    }
    // A frame listed by two sessions: keep the session that owns it (its own), listed last.
    const byId = new Map<string, FrameNode>();
    for (const f of out) {
      const prev = byId.get(f.frameId);
      byId.set(f.frameId, prev && prev.parentId && !f.parentId ? { ...f, parentId: prev.parentId } : f);
    }
    return [...byId.values()];
  }

  private async createWorld(f: FrameNode): Promise<World> {
    const { executionContextId } = await f.session.send('Page.createIsolatedWorld', { frameId: f.frameId, worldName: 'ariadne', grantUniveralAccess: false });
    const res = await f.session.send('Runtime.evaluate', {
      contextId: executionContextId,
      expression: `${BRIDGE_SOURCE}\n;globalThis.__ariadne.install(${JSON.stringify(this.eventName)})`,
      returnByValue: true,
    });
    if (res.exceptionDetails) throw new Error(`bridge install failed: ${res.exceptionDetails.exception?.description ?? res.exceptionDetails.text}`);
    const w: World = { frameId: f.frameId, loaderId: f.loaderId, parentId: f.parentId, url: f.url, name: f.name, contextId: executionContextId, session: f.session };
    this.worlds.set(f.frameId, w);
    return w;
  }

  private world(f: FrameNode): Promise<World> {
    const have = this.worlds.get(f.frameId);
    if (have && have.loaderId === f.loaderId && have.session === f.session) {
      have.url = f.url;
      have.parentId = f.parentId;
      return Promise.resolve(have);
    }
    const key = `${f.frameId}:${f.loaderId}`;
    let p = this.creating.get(key);
    if (!p) {
      p = this.createWorld(f).finally(() => this.creating.delete(key));
      this.creating.set(key, p);
    }
    return p;
  }

  /** Worlds for every frame of the page, created where missing (the catch listener must be in place before a hand-off). */
  async allWorlds(): Promise<World[]> {
    const tree = await this.frameTree();
    const live = new Set(tree.map((f) => f.frameId));
    for (const id of [...this.worlds.keys()]) if (!live.has(id)) this.worlds.delete(id);
    const worlds = await Promise.all(tree.map((f) => this.world(f).catch(() => null)));
    return worlds.filter((w): w is World => w !== null);
  }

  async mainWorld(): Promise<World> {
    const tree = await this.frameTree();
    const main = tree.find((f) => !f.parentId) ?? tree[0];
    return this.world(main);
  }

  invalidate(frameId?: string): void {
    if (frameId) this.worlds.delete(frameId);
    else this.worlds.clear();
  }

  /** One in-page call: run(op, args, ...objects) in the world; plain JSON back. */
  async call<T>(world: World, op: string, args: Record<string, unknown>, objectIds: string[] = []): Promise<T | { __miss: true }> {
    let res;
    try {
      res = await world.session.send('Runtime.callFunctionOn', {
        executionContextId: world.contextId,
        functionDeclaration: CALL,
        arguments: [{ value: op }, { value: args }, ...objectIds.map((objectId) => ({ objectId }))],
        returnByValue: true,
      });
    } catch (err) {
      const msg = (err as Error).message ?? '';
      if (CONTEXT_LOST.test(msg)) {
        this.invalidate(world.frameId);
        throw new BridgeContextLost(msg);
      }
      throw err;
    }
    if (res.exceptionDetails) {
      const desc = res.exceptionDetails.exception?.description ?? res.exceptionDetails.text;
      throw new AppError('internal_error', `bridge ${op} threw: ${desc.split('\n')[0]}`);
    }
    const value = res.result.value as T | BridgeErrorResult | { __miss: true };
    if (value && typeof value === 'object' && '__error' in value) {
      const e = (value as BridgeErrorResult).__error;
      throw new AppError(e.code as ErrorCode, e.message, e.details);
    }
    return value as T | { __miss: true };
  }

  /** Worlds already set up (no CDP call): for calls issued together with their hand-off. */
  knownWorlds(): World[] {
    return [...this.worlds.values()];
  }

  /**
   * Like call(), but the page waits up to `waitMs` for the slot's hand-off, so the
   * hand-off and this call can be sent at the same time. A miss when it never came.
   */
  async callWaiting<T>(world: World, op: string, args: Record<string, unknown>, waitMs: number): Promise<T | { __miss: true }> {
    const res = await world.session.send('Runtime.callFunctionOn', {
      executionContextId: world.contextId,
      functionDeclaration: CALL_WAIT,
      arguments: [{ value: op }, { value: args }, { value: waitMs }],
      returnByValue: true,
      awaitPromise: true,
    });
    if (res.exceptionDetails) return { __miss: true };
    const value = res.result.value as T | BridgeErrorResult | { __miss: true };
    if (value && typeof value === 'object' && '__error' in value) {
      const e = (value as BridgeErrorResult).__error;
      throw new AppError(e.code as ErrorCode, e.message, e.details);
    }
    return value as T | { __miss: true };
  }

  newSlot(): string {
    return `s${++this.slotSeq}`;
  }

  /**
   * Hand the elements each locator matches to the worlds, tagged, under one slot. The
   * only main-world code is a dispatchEvent on the element. A single element (a ref, or
   * the first match) is resolved with locator.evaluate, which queries in Playwright's
   * utility world: aria-ref's snapshot lives there, and a page that patched
   * document.querySelectorAll cannot interfere. Several matches go in one evaluateAll
   * (a main-world query, tagged with their index); if that finds fewer than count()
   * (the page broke its own query APIs), they go one nth() at a time instead.
   */
  async handOff(slot: string, items: HandOffItem[]): Promise<number[]> {
    const one = (locator: Locator, detail: string, timeout = 5000) =>
      locator
        .evaluate((el, [name, d]) => (el.dispatchEvent(new CustomEvent(name, { detail: d, composed: true })), 1), [this.eventName, detail] as const, { timeout })
        .catch(() => 0);
    return Promise.all(
      items.map(async ({ locator, tag, single, limit, optional }) => {
        // evaluate() waits for a missing element until its timeout, so an optional item is first
        // counted (no wait). A short evaluate timeout instead dropped present elements whenever the
        // page or the machine was slow to answer (refs missing from answers under load).
        if (single && optional && (await locator.count().catch(() => 0)) === 0) return 0;
        if (single) return one(locator, `${slot}\u0001${tag}`, 5000);
        const n = Math.min(await locator.count().catch(() => 0), limit ?? 1000);
        if (n === 0) return 0;
        const sent = await locator
          .evaluateAll((els, [name, prefix, max]) => {
            const k = els.length < max ? els.length : max;
            for (let i = 0; i < k; i++) els[i].dispatchEvent(new CustomEvent(name, { detail: `${prefix}#${i}`, composed: true }));
            return k;
          }, [this.eventName, `${slot}\u0001${tag}`, n] as const)
          .catch(() => 0);
        if (sent === n) return n;
        // Slow path, a few at a time; a re-sent index is simply caught twice (the page dedupes by index).
        let done = 0;
        for (let i = 0; i < n; i += 8) {
          const batch = await Promise.all(Array.from({ length: Math.min(8, n - i) }, (_, k) => one(locator.nth(i + k), `${slot}\u0001${tag}#${i + k}`)));
          done += batch.reduce((a, b) => a + b, 0);
        }
        return done;
      }),
    );
  }

  /**
   * Hand off, then run `op` in whichever world caught the target. Retried once when
   * a frame navigated in between (its world is gone, or the element never arrived).
   */
  async runOnCaught<T>(items: HandOffItem[], op: string, args: Record<string, unknown>): Promise<{ result: T; world: World }> {
    for (let attempt = 0; ; attempt++) {
      try {
        const worlds = await this.allWorlds();
        const slot = this.newSlot();
        const counts = await this.handOff(slot, items);
        if (counts[0] === 0) throw new AppError('target_not_found', 'The target element is gone from the page.');
        const results = await Promise.all(worlds.map((w) => this.call<T>(w, op, { ...args, slot }).then((r) => ({ r, w }))));
        const hit = results.find(({ r }) => !(r && typeof r === 'object' && '__miss' in (r as object)));
        if (hit) return { result: hit.r as T, world: hit.w };
        if (attempt >= 1) throw new AppError('internal_error', 'The bridge did not receive the element (the page may be navigating); retry.');
        this.invalidate();
      } catch (err) {
        if (!(err instanceof BridgeContextLost) || attempt >= 1) throw err;
      }
    }
  }

  /** Run a document-level op in one world (by frame id) or every world. */
  async runInWorlds<T>(op: string, args: Record<string, unknown>, filter?: (w: World) => boolean): Promise<{ result: T; world: World }[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        const worlds = (await this.allWorlds()).filter((w) => (filter ? filter(w) : true));
        const results = await Promise.all(worlds.map(async (w) => ({ result: (await this.call<T>(w, op, args)) as T, world: w })));
        return results;
      } catch (err) {
        if (!(err instanceof BridgeContextLost) || attempt >= 1) throw err;
      }
    }
  }

  /** Resolve a node of one frame (by backendNodeId) into another world as an object id. */
  async resolveInto(world: World, backendNodeId: number): Promise<string> {
    const { object } = await world.session.send('DOM.resolveNode', { backendNodeId, executionContextId: world.contextId });
    if (!object.objectId) throw new Error('DOM.resolveNode returned no object');
    return object.objectId;
  }

  /** The iframe element owning a frame, resolved into the parent frame's world. */
  async frameOwner(child: World, parent: World): Promise<string> {
    const { backendNodeId } = await parent.session.send('DOM.getFrameOwner', { frameId: child.frameId });
    return this.resolveInto(parent, backendNodeId);
  }

  async release(world: World, objectIds: string[]): Promise<void> {
    await Promise.all(objectIds.map((objectId) => world.session.send('Runtime.releaseObject', { objectId }).catch(() => {})));
  }
}
