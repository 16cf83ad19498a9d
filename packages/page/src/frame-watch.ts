import type { BrowserContext } from 'playwright-core';

// Which animation-frame callbacks has the page asked for that have not run yet?
//
// The settle look after an action is a page task: it sees what the action's handlers set
// off with a timer of 0 or a message. Work a handler put in the next animation frame (a
// view rendered in requestAnimationFrame, as Elm, Mithril and hand-written batching do, or
// a fetch started there) runs only when the renderer produces that frame, up to ~16 ms
// later. The look must not answer before it, but waiting for a frame after every action
// costs a frame's phase (~8 ms) where nothing was asked of the frame. So every document
// counts its pending callbacks here, and the look waits for a frame only when some are
// pending (or it cannot tell: no counter, or child frames it cannot see into).
//
// Runs in the page's main world before its own scripts (an init script). The wrappers keep
// the native functions' names, arity, receivers and errors; the count is reachable only
// through a registered symbol.

export const PENDING_FRAMES_KEY = 'ariadne.pendingFrames';

/** In the page: wrap requestAnimationFrame / cancelAnimationFrame to count pending callbacks. */
function frameWatch(key: string): void {
  const w = window as unknown as Record<string | symbol, unknown>;
  const sym = Symbol.for(key);
  if (w[sym]) return;
  const pending = new Set<number>();
  const wrap = (requestName: string, cancelName: string) => {
    const request = w[requestName] as ((this: unknown, cb: FrameRequestCallback) => number) | undefined;
    const cancel = w[cancelName] as ((this: unknown, id: number) => void) | undefined;
    if (typeof request !== 'function' || typeof cancel !== 'function') return;
    const wrapped = {
      [requestName](this: unknown, callback: FrameRequestCallback): number {
        if (typeof callback !== 'function') return request.call(this, callback); // the native error
        const id: number = request.call(this, (time: number) => {
          pending.delete(id);
          callback(time);
        });
        pending.add(id);
        return id;
      },
      [cancelName](this: unknown, id: number): void {
        pending.delete(id);
        return cancel.call(this, id);
      },
    };
    w[requestName] = wrapped[requestName];
    w[cancelName] = wrapped[cancelName];
  };
  wrap('requestAnimationFrame', 'cancelAnimationFrame');
  wrap('webkitRequestAnimationFrame', 'webkitCancelAnimationFrame');
  Object.defineProperty(w, sym, { value: () => pending.size });
}

const SCRIPT = `(${frameWatch.toString()})(${JSON.stringify(PENDING_FRAMES_KEY)});`;

/** Count pending animation frames in every document the context loads from now on. */
export async function installFrameWatch(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: SCRIPT });
}
