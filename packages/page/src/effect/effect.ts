import type { Locator, Request } from 'playwright-core';
import { AppError, type ActionEffect } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { Bridge, BridgeContextLost, type World } from '../bridge/bridge.js';
import { refOfObject } from '../targeting/selector.js';
import type { WatchReading } from '../bridge/injected/effect.js';

// What an action did (seams §3). Every action answer carries
//   effect: { changed, navigated, requests, dom?, focus?, values?, url? }
// so an agent (or a flow report) can tell "done, and the page reacted" from "done, and
// nothing happened" without another snapshot. Watched from before the action until the
// settle wait ends: DOM mutations, value edits and focus in Ariadne's isolated world
// (injected/effect.ts), requests and navigation here. A click whose event did not pass
// through the target fails with click_intercepted, naming the element that took it.

/** What an action did (the answer's `effect`; its schema is @ariadne/schema's ActionEffect). */
export type Effect = ActionEffect;

/** What the in-page watch reports (bridge/injected/effect.ts). */
type Reading = WatchReading;

let seq = 0;

export class EffectWatch {
  private requests = 0;
  private readonly onRequest = (r: Request) => {
    // Long-lived streams and beacons are not a reaction to this action.
    if (r.resourceType() !== 'websocket' && r.resourceType() !== 'eventsource') this.requests++;
  };
  private stopped = false;

  private constructor(
    private readonly state: PageState,
    private readonly id: string,
    /** The target's world first (click checks), then the main frame's when different. */
    private readonly worlds: World[],
    private readonly urlBefore: string,
    private readonly epochBefore: number,
  ) {
    state.page.on('request', this.onRequest);
  }

  /**
   * Start watching before an action. A page that cannot be watched (navigating, closed)
   * still gets requests and navigation counted; dom/focus/values are then left out.
   */
  static async start(state: PageState, clickTarget?: Locator): Promise<EffectWatch> {
    const id = `w${++seq}`;
    const bridge = Bridge.for(state);
    const worlds: World[] = [];
    const urlBefore = state.page.url();
    const epochBefore = state.navEpoch;
    try {
      // Only a click needs the target itself in the watch (its event path is checked): the
      // hand-off costs a Playwright round trip, the document watch one CDP call.
      if (clickTarget) {
        const { world } = await bridge.runOnCaught([{ locator: clickTarget, tag: 'target', single: true, optional: true }], 'effectStart', { watchId: id });
        worlds.push(world);
      }
      if (!worlds.some((w) => !w.parentId)) {
        // The main frame's world as already set up; found again when it went with a navigation.
        let main = bridge.knownWorlds().find((w) => !w.parentId);
        const started = main ? await bridge.call(main, 'effectStart', { watchId: id }).then(() => true, () => false) : false;
        if (!started) {
          main = await bridge.mainWorld();
          await bridge.call(main, 'effectStart', { watchId: id });
        }
        worlds.push(main!);
      }
    } catch {
      /* watched partly or not at all */
    }
    return new EffectWatch(state, id, worlds, urlBefore, epochBefore);
  }

  private async read(world: World, stop: boolean): Promise<Reading | null> {
    try {
      const r = (await Bridge.for(this.state).call<Reading>(world, 'effectRead', { watchId: this.id, stop })) as Reading | { __miss: true };
      if (!r || '__miss' in r || r.gone) return null;
      return r;
    } catch (err) {
      if (err instanceof BridgeContextLost || err instanceof Error) return null;
      return null;
    }
  }

  /**
   * After a click: did its event reach the target? A click event that went elsewhere
   * (and none that reached it) is click_intercepted, with the element that received it.
   * `description` says what was aimed at (for the message).
   */
  async checkClick(description: string): Promise<void> {
    const world = this.worlds[0];
    if (!world) return;
    const r = await this.read(world, false);
    if (!r || r.clicks === 0 || r.reached > 0) return;
    const receivedBy = r.receivedBy ?? 'another element';
    let ref: string | null = null;
    try {
      const res = await world.session.send('Runtime.callFunctionOn', {
        executionContextId: world.contextId,
        functionDeclaration: `function(id) { return globalThis.__ariadne.missedBy(id); }`,
        arguments: [{ value: this.id }],
        returnByValue: false,
      });
      if (res.result.objectId) {
        ref = await refOfObject(this.state, world, res.result.objectId);
        await world.session.send('Runtime.releaseObject', { objectId: res.result.objectId }).catch(() => {});
      }
    } catch {
      /* the receiver's ref is a nicety */
    }
    this.stop();
    throw new AppError('click_intercepted', `The click did not reach ${description}: ${receivedBy} received it, so the element's own click handler did not run.`, {
      receivedBy,
      ...(ref ? { ref } : {}),
      hint: 'Something moved or covered the element between press and release (a blur handler, an overlay on hover). Check the page (snapshot), then retry, or act on what received the click if that is what you meant.',
    });
  }

  /** Stop watching and say what happened. `treeChanged`: the action's snapshot diff saw changes. */
  async finish(treeChanged = false): Promise<Effect> {
    const page = this.state.page;
    const navigated = this.state.navEpoch !== this.epochBefore || page.url() !== this.urlBefore;
    const readings = navigated ? [] : (await Promise.all(this.worlds.map((w) => this.read(w, true)))).filter((r): r is Reading => r !== null);
    this.stop();
    const effect: Effect = { changed: false, navigated, requests: this.requests };
    if (readings.length) {
      effect.dom = readings.reduce((a, r) => a + r.mutations, 0);
      effect.focus = readings.some((r) => r.focus);
      effect.values = readings.some((r) => r.values > 0);
    }
    if (navigated) effect.url = page.url();
    effect.changed = navigated || this.requests > 0 || (effect.dom ?? 0) > 0 || effect.focus === true || effect.values === true || treeChanged;
    return effect;
  }

  /** Counts so far, without stopping (type+submit compares before and after Enter). */
  async peek(): Promise<{ requests: number; dom: number; navigated: boolean }> {
    const navigated = this.state.navEpoch !== this.epochBefore || this.state.page.url() !== this.urlBefore;
    const readings = navigated ? [] : (await Promise.all(this.worlds.map((w) => this.read(w, false)))).filter((r): r is Reading => r !== null);
    return { requests: this.requests, dom: readings.reduce((a, r) => a + r.mutations, 0), navigated };
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.state.page.off('request', this.onRequest);
  }
}
