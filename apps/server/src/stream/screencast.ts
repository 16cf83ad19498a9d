import type { CDPSession } from 'playwright-core';
import type { PageState } from '@ariadne/page';

// One CDP screencast per tab, shared by every client watching it. Each frame is
// acknowledged at once, so the browser never waits on us; each watcher has its own
// frame-rate cap, and a watcher whose socket is still busy simply misses frames
// (dropped, counted) instead of growing a buffer.

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

  constructor(private readonly state: PageState, private readonly opts: ScreencastOptions, private readonly onIdle: () => void) {
    state.once('close', () => void this.stop());
  }

  async add(w: Watcher): Promise<void> {
    this.watchers.add(w);
    this.starting ??= this.start();
    await this.starting;
  }

  remove(w: Watcher): void {
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
      const now = Date.now();
      for (const w of this.watchers) {
        if (now - w.lastSentAt < 1000 / w.maxFps) {
          w.dropped++;
          continue;
        }
        if (w.deliver(frame)) {
          w.lastSentAt = now;
          w.sent++;
        } else {
          w.dropped++;
        }
      }
    });
    await cdp.send('Page.startScreencast', {
      format: 'jpeg',
      quality: this.opts.quality,
      maxWidth: this.opts.maxWidth,
      maxHeight: this.opts.maxHeight,
      everyNthFrame: 1,
    });
  }

  async stop(): Promise<void> {
    const cdp = this.cdp;
    this.cdp = null;
    this.starting = null;
    this.watchers.clear();
    this.onIdle();
    if (!cdp) return;
    await cdp.send('Page.stopScreencast').catch(() => {});
    await cdp.detach().catch(() => {});
  }
}
