import type { CDPSession } from 'playwright-core';
import type { PageState } from '@ariadne/page';

// One CDP screencast per tab, shared by every client watching it. Each frame is
// acknowledged at once, so the browser never waits on us; each watcher has its own
// frame-rate cap, and a watcher whose socket is still busy simply misses frames
// (dropped, counted) instead of growing a buffer. Within the cap the newest frame is held
// and sent when the watcher's window ends: the browser sends no frame while the page stays
// still, so the last frame of a burst is the page as it stays, and must not be the one lost.

export interface Frame {
  data: string; // base64 JPEG
  metadata: { deviceWidth: number; deviceHeight: number; timestamp?: number };
}

export interface Watcher {
  maxFps: number;
  lastSentAt: number;
  sent: number;
  dropped: number;
  /** Returns false when the socket is too busy to take this frame. */
  deliver(frame: Frame): boolean;
}

export interface ScreencastOptions {
  quality: number;
  maxWidth: number;
  maxHeight: number;
}

export class Screencast {
  private cdp: CDPSession | null = null;
  private starting: Promise<void> | null = null;
  readonly watchers = new Set<Watcher>();
  /** Per watcher, the newest frame that came within its frame-rate window, sent when the window ends. */
  private readonly held = new Map<Watcher, { frame: Frame; timer: NodeJS.Timeout }>();

  constructor(private readonly state: PageState, private readonly opts: ScreencastOptions, private readonly onIdle: () => void) {
    state.once('close', () => void this.stop());
  }

  async add(w: Watcher): Promise<void> {
    this.watchers.add(w);
    this.starting ??= this.start();
    await this.starting;
  }

  remove(w: Watcher): void {
    this.release(w);
    this.watchers.delete(w);
    if (this.watchers.size === 0) void this.stop();
  }

  private async start(): Promise<void> {
    const cdp = await this.state.page.context().newCDPSession(this.state.page);
    this.cdp = cdp;
    cdp.on('Page.screencastFrame', (f) => {
      // Ack first: the browser produces the next frame without waiting for any client.
      void cdp.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch(() => {});
      const frame: Frame = { data: f.data, metadata: f.metadata };
      for (const w of this.watchers) this.offer(w, frame);
    });
    await cdp.send('Page.startScreencast', {
      format: 'jpeg',
      quality: this.opts.quality,
      maxWidth: this.opts.maxWidth,
      maxHeight: this.opts.maxHeight,
      everyNthFrame: 1,
    });
  }

  /** Send now if the watcher's window allows, else hold it (replacing, and counting as dropped, an older one). */
  private offer(w: Watcher, frame: Frame): void {
    const wait = w.lastSentAt + 1000 / w.maxFps - Date.now();
    const held = this.held.get(w);
    if (wait > 0) {
      if (held) {
        held.frame = frame;
        w.dropped++;
        return;
      }
      const timer = setTimeout(() => {
        const h = this.held.get(w);
        this.held.delete(w);
        if (h && this.watchers.has(w)) this.send(w, h.frame);
      }, wait);
      timer.unref();
      this.held.set(w, { frame, timer });
      return;
    }
    // The window ended before the timer ran: this frame is newer than the held one.
    if (held) {
      this.release(w);
      w.dropped++;
    }
    this.send(w, frame);
  }

  private send(w: Watcher, frame: Frame): void {
    if (w.deliver(frame)) {
      w.lastSentAt = Date.now();
      w.sent++;
    } else {
      w.dropped++;
    }
  }

  private release(w: Watcher): void {
    const held = this.held.get(w);
    if (held) clearTimeout(held.timer);
    this.held.delete(w);
  }

  async stop(): Promise<void> {
    const cdp = this.cdp;
    this.cdp = null;
    this.starting = null;
    for (const w of this.watchers) this.release(w);
    this.watchers.clear();
    this.onIdle();
    if (!cdp) return;
    await cdp.send('Page.stopScreencast').catch(() => {});
    await cdp.detach().catch(() => {});
  }
}
