import { EventEmitter } from 'node:events';
import type { ConsoleMessage, Dialog, Page, Request } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import { type AriaNode, normalizeTree, indexRefs, sameTree } from './snapshot/tree.js';
import { RingBuffer } from './ring-buffer.js';
import { directSnapshotJSON, surfacePublicTree, type StallWatch } from './snapshot/direct.js';

// Everything the service remembers about one tab: its latest full snapshot (for
// diffs and for telling stale refs from unknown ones), the pending dialog, and
// bounded logs of console messages and network requests. It also re-emits page
// events so streaming clients can follow along.

export interface ConsoleEntry {
  seq: number;
  time: string;
  level: string;
  text: string;
  location?: string;
}

export interface NetworkEntry {
  id: string;
  time: string;
  method: string;
  url: string;
  resourceType: string;
  status?: number;
  statusText?: string;
  durationMs?: number;
  failure?: string;
  fromCache?: boolean;
  request: Request;
  started: number;
}

export interface PageEvents {
  navigated: [{ url: string }];
  load: [{ url: string }];
  console: [ConsoleEntry];
  consolePaused: [{ pausedMs: number; limitPerSecond: number; pauses: number }];
  dialog: [{ type: string; message: string }];
  popup: [{ page: Page }];
  download: [{ url: string; suggestedFilename: string }];
  requestfailed: [{ url: string; failure: string; method: string; egress?: { host: string; reason: string } }];
  crash: [];
  close: [];
}

export interface SnapshotRecord {
  id: string;
  tree: AriaNode[];
  takenAt: number;
  /** navEpoch when taken: snapshots of different documents are not diffed. */
  epoch: number;
  /** The same document and the same tree as the snapshot before it (nothing changed in between). */
  unchanged?: boolean;
}

/** A title read from the page, and the latest snapshot it still goes with. */
export interface TitleRead {
  title: string;
  snapshotId: string;
  /** When it was read from the page (Date.now()). */
  at: number;
}

/** Per-tab log bounds: entries and bytes (characters of the stored strings). */
export const LOG_LIMITS = {
  consoleEntries: 1000,
  consoleBytes: 512 * 1024,
  networkEntries: 500,
  networkBytes: 512 * 1024,
  /** Longest URL kept in the network log (data: URLs can be megabytes). */
  urlChars: 2048,
  /**
   * Console messages per tab per second the service takes in. Over it, it stops listening
   * for consolePauseMs (Playwright then stops shipping console events to this process at
   * all, which is what keeps a flood from outrunning the server) and logs a marker.
   */
  consolePerSecond: 2000,
  consolePauseMs: 1000,
  /** What the page's console may log per second and frame once it was found flooding. */
  consoleLimitedPerSecond: 200,
  /** Console events arriving this late mean the page logs faster than this process reads. */
  consoleLagMs: 10_000,
};

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

/**
 * Installed in a page that floods its console: its console methods pass at most `limit`
 * calls per second per frame, and say once a second how many they dropped. A flood is
 * stopped where it starts, before the browser serializes it toward this process (which
 * cannot keep up with a page logging in a tight loop: everything else queues behind).
 */
function consoleLimiter(limit: number): void {
  const c = console as unknown as Record<string, unknown> & { __ariadneLimited?: boolean };
  if (c.__ariadneLimited) return;
  Object.defineProperty(c, '__ariadneLimited', { value: true });
  const warn = (c.warn as (...a: unknown[]) => void).bind(console);
  let start = 0;
  let count = 0;
  let dropped = 0;
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | 0 = 0;
  for (const m of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'dirxml', 'table', 'count', 'timeLog', 'assert', 'group', 'groupCollapsed']) {
    const orig = c[m];
    if (typeof orig !== 'function') continue;
    c[m] = function (this: unknown, ...args: unknown[]) {
      const now = Date.now();
      if (now - start >= 1000) { start = now; count = 0; }
      if (++count <= limit) return (orig as (...a: unknown[]) => unknown).apply(this, args);
      dropped++;
      total++;
      if (!timer) {
        timer = setTimeout(() => {
          timer = 0;
          // The running total too: a marker that is not captured (the capture may be paused
          // just then) loses no count, the next one carries it.
          warn(`[ariadne] ${dropped} console messages dropped (${total} in all): this page logs more than ${limit} per second.`);
          dropped = 0;
        }, 1000);
      }
      return undefined;
    };
  }
}

const limitedContexts = new WeakSet<object>();
const LIMITER_MARKER = /^\[ariadne\] \d+ console messages dropped \((\d+) in all\)/;

export class PageState extends EventEmitter<PageEvents> {
  readonly console = new RingBuffer<ConsoleEntry>(LOG_LIMITS.consoleEntries, LOG_LIMITS.consoleBytes, (e) => 64 + e.text.length + (e.location?.length ?? 0));
  readonly network = new RingBuffer<NetworkEntry>(LOG_LIMITS.networkEntries, LOG_LIMITS.networkBytes, (e) => 256 + e.url.length);
  /** The tab's title as last seen: listings read this and never wait on the page. */
  title = '';
  private titleInFlight: Promise<void> | null = null;
  private readonly requests = new WeakMap<Request, NetworkEntry>();
  private consoleSeq = 0;
  private requestSeq = 0;
  private snapshotSeq = 0;
  /** Bumped on every new main-frame document: refs issued before it are stale. */
  navEpoch = 0;
  /** Refs handed out, with the epoch they belong to (bounded). */
  private readonly issuedRefs = new Map<string, number>();
  lastSnapshot: SnapshotRecord | null = null;
  /** The snapshot the last action acted on (actions.ts): what a later step sees as new is not in it (targeting/locate.ts). */
  shownAtLastAction: SnapshotRecord | null = null;
  /** The title served with the latest snapshot view (see snapshotView: reused while nothing changes). */
  titleRead: TitleRead | null = null;
  dialog: Dialog | null = null;
  /** Calls in flight that a dialog must abort (see watchDialogs). */
  private readonly dialogWatchers = new Set<(err: Error) => void>();
  crashed = false;
  closed = false;
  /** Set by the session manager: the egress denial behind a failed or refused request, if any. */
  egressDenial?: (url: string) => { host: string; reason: string } | undefined;

  constructor(readonly id: string, readonly page: Page, readonly openerId?: string) {
    super();
    this.setMaxListeners(50);
    page.on('console', this.onConsole);
    page.on('pageerror', (err) => this.pushConsole('pageerror', err.stack || err.message));
    page.on('dialog', (d) => {
      this.dialog = d;
      if (this.dialogWatchers.size > 0) {
        const err = new AppError('dialog_pending', 'A dialog opened on this page; handle it first with the handle_dialog action.', { dialog: this.dialogInfo() });
        for (const abort of [...this.dialogWatchers]) abort(err);
      }
      this.emit('dialog', { type: d.type(), message: d.message() });
    });
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.emit('navigated', { url: frame.url() });
    });
    page.on('domcontentloaded', () => { this.navEpoch++; });
    page.on('load', () => { this.refreshTitle(); this.emit('load', { url: page.url() }); });
    page.on('popup', (p) => this.emit('popup', { page: p }));
    page.on('download', (d) => this.emit('download', { url: d.url(), suggestedFilename: d.suggestedFilename() }));
    page.on('crash', () => { this.crashed = true; this.emit('crash'); });
    page.on('close', () => { this.closed = true; this.emit('close'); });
    page.on('request', (req) => {
      const entry: NetworkEntry = {
        id: `r${++this.requestSeq}`,
        time: new Date().toISOString(),
        method: req.method(),
        url: clip(req.url(), LOG_LIMITS.urlChars),
        resourceType: req.resourceType(),
        request: req,
        started: Date.now(),
      };
      this.requests.set(req, entry);
      this.network.push(entry);
    });
    page.on('response', (res) => {
      const entry = this.requests.get(res.request());
      if (!entry) return;
      entry.status = res.status();
      entry.statusText = res.statusText();
      entry.fromCache = res.fromServiceWorker();
      // A plain-http request the egress proxy refused (answered 403 by the proxy itself).
      const egress = entry.status === 403 && res.headers()['x-ariadne-egress']?.startsWith('denied') ? this.egressDenial?.(entry.url) : undefined;
      if (egress) {
        entry.failure = `egress_denied: ${egress.host} (${egress.reason})`;
        this.emit('requestfailed', { url: entry.url, failure: entry.failure, method: entry.method, egress });
      }
    });
    page.on('requestfinished', (req) => {
      const entry = this.requests.get(req);
      if (entry) entry.durationMs = Date.now() - entry.started;
    });
    page.on('requestfailed', (req) => {
      const entry = this.requests.get(req);
      const egress = this.egressDenial?.(req.url());
      const failure = egress ? `egress_denied: ${egress.host} (${egress.reason})` : req.failure()?.errorText ?? 'failed';
      if (entry) {
        entry.failure = failure;
        entry.durationMs = Date.now() - entry.started;
      }
      this.emit('requestfailed', { url: clip(req.url(), LOG_LIMITS.urlChars), failure, method: req.method(), ...(egress ? { egress } : {}) });
    });
  }

  /** Console flood guard: counted per second, paused over the rate, with a marker after. */
  private consoleWindow = { start: 0, count: 0 };
  consolePauses = 0;
  consolePausedMs = 0;
  private consolePaused = false;
  /** Console calls the in-page limiter dropped, by document (from its markers' running totals). */
  private readonly droppedInPage = new Map<string, number>();
  /** Totals of documents folded out of droppedInPage (it is bounded). */
  private droppedInPageBefore = 0;

  /** Console calls dropped inside the page by the limiter, as its markers have told so far. */
  get consoleDroppedInPage(): number {
    let n = this.droppedInPageBefore;
    for (const v of this.droppedInPage.values()) n += v;
    return n;
  }

  /** A limiter's running total, per document (a new document's limiter counts from 0). */
  private countDroppedInPage(key: string, total: number): void {
    this.droppedInPage.set(key, Math.max(this.droppedInPage.get(key) ?? 0, total));
    // Bounded: documents long gone are folded into one number.
    if (this.droppedInPage.size > 64) {
      const [oldest, n] = this.droppedInPage.entries().next().value as [string, number];
      this.droppedInPage.delete(oldest);
      this.droppedInPageBefore += n;
    }
  }

  private readonly onConsole = (msg: ConsoleMessage): void => {
    const loc = msg.location();
    const text = msg.text();
    this.pushConsole(msg.type(), text, loc.url ? `${clip(loc.url, 300)}:${loc.lineNumber}` : undefined);
    const marker = text.startsWith('[ariadne] ') ? LIMITER_MARKER.exec(text) : null;
    if (marker) this.countDroppedInPage(`${this.navEpoch}|${loc.url}`, Number(marker[1]));
    // Playwright keeps every console argument's handle alive until the document goes
    // away: on a page that logs without end that alone grew the server by gigabytes.
    for (const arg of msg.args()) void arg.dispose().catch(() => {});
    // Counted by when the page logged (not when this process got to it): a one-off burst of a
    // thousand lines is fine on a slow machine, a page logging tens of thousands a second is not.
    const at = msg.timestamp();
    if (at - this.consoleWindow.start >= 1000 || at < this.consoleWindow.start) this.consoleWindow = { start: at, count: 0 };
    const lagging = Date.now() - at > LOG_LIMITS.consoleLagMs;
    if ((++this.consoleWindow.count > LOG_LIMITS.consolePerSecond || lagging) && !this.consolePaused) this.pauseConsole();
  };

  private pauseConsole(): void {
    this.consolePaused = true;
    this.consolePauses++;
    this.page.off('console', this.onConsole);
    this.limitConsoleAtSource();
    const ms = LOG_LIMITS.consolePauseMs;
    setTimeout(() => {
      this.consolePaused = false;
      this.consolePausedMs += ms;
      if (this.closed) return;
      this.page.on('console', this.onConsole);
      this.pushConsole('dropped', `Console capture paused for ${ms} ms: the page logged more than ${LOG_LIMITS.consolePerSecond} messages in a second (or faster than they could be read; it is now limited to ${LOG_LIMITS.consoleLimitedPerSecond} per second and frame); what it logged meanwhile was not recorded (pause ${this.consolePauses}, ${this.consolePausedMs} ms in all).`);
      this.emit('consolePaused', { pausedMs: ms, limitPerSecond: LOG_LIMITS.consolePerSecond, pauses: this.consolePauses });
    }, ms).unref();
  }

  /** Rate-limit console calls inside the page: its frames now, the role's later documents too. */
  private limitConsoleAtSource(): void {
    const limit = LOG_LIMITS.consoleLimitedPerSecond;
    // Commands travel to the browser at once even while its events queue up toward us.
    for (const frame of this.page.frames()) void frame.evaluate(consoleLimiter, limit).catch(() => {});
    const context = this.page.context();
    if (!limitedContexts.has(context)) {
      limitedContexts.add(context);
      void context.addInitScript({ content: `(${consoleLimiter.toString()})(${limit});` }).catch(() => {});
    }
  }

  private pushConsole(level: string, text: string, location?: string): void {
    const entry: ConsoleEntry = { seq: ++this.consoleSeq, time: new Date().toISOString(), level, text: text.slice(0, 4000), location };
    this.console.push(entry);
    this.emit('console', entry);
  }

  /**
   * The page's title now, waiting at most boundMs: a page whose main thread is stuck (a busy
   * loop that starts after load) never answers a title read, and an action that already
   * happened must not turn into a timeout for it. Falls back to the title last seen.
   */
  async readTitle(read: () => Promise<string>, boundMs = 3000): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((r) => { timer = setTimeout(() => r(null), boundMs); });
    try {
      const t = await Promise.race([read().catch(() => null), late]);
      if (typeof t === 'string') this.title = t;
      return t ?? this.title;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Update the cached title in the background (one read at a time, bounded). */
  refreshTitle(): Promise<void> {
    if (this.titleInFlight) return this.titleInFlight;
    if (this.closed || this.crashed) return Promise.resolve();
    this.titleInFlight = this.readTitle(() => this.page.title(), 2000)
      .then(() => undefined)
      .finally(() => { this.titleInFlight = null; });
    return this.titleInFlight;
  }

  /** Refuse page work while a dialog blocks the page (it would hang, see DESIGN.md). */
  assertNoDialog(): void {
    if (this.dialog) {
      throw new AppError('dialog_pending', 'A dialog is open on this page; handle it first with the handle_dialog action.', {
        dialog: this.dialogInfo(),
      });
    }
  }

  dialogInfo(): { type: string; message: string; defaultValue?: string } | undefined {
    const d = this.dialog;
    if (!d) return undefined;
    return { type: d.type(), message: d.message(), ...(d.defaultValue() ? { defaultValue: d.defaultValue() } : {}) };
  }

  /** Take the full-page AI snapshot: the only ariaSnapshot call the service makes. */
  async snapshot(timeoutMs: number, opts: { afterPendingCalls?: boolean } = {}): Promise<{ current: SnapshotRecord; previous: SnapshotRecord | null }> {
    this.assertNoDialog();
    const raw = await this.snapshotJSON(timeoutMs, opts.afterPendingCalls === true);
    const tree = normalizeTree(raw);
    const previous = this.lastSnapshot;
    // A page polled while nothing happens answers the same tree again and again: then its
    // refs are issued already, and the caller may skip other per-change work.
    const unchanged = previous !== null && previous.epoch === this.navEpoch && sameTree(previous.tree, tree);
    const current: SnapshotRecord = { id: `s${++this.snapshotSeq}`, tree, takenAt: Date.now(), epoch: this.navEpoch, unchanged };
    this.lastSnapshot = current;
    if (!unchanged) for (const ref of indexRefs(tree).keys()) this.issuedRefs.set(ref, this.navEpoch);
    // Forget refs from long-gone documents so the map stays bounded.
    if (this.issuedRefs.size > 50_000) {
      for (const [ref, epoch] of this.issuedRefs) if (epoch < this.navEpoch - 2) this.issuedRefs.delete(ref);
    }
    return { current, previous };
  }

  /**
   * The full-page AI snapshot JSON: the direct path when it can, else Playwright's public call.
   * The direct path reaches the page sooner than a Playwright call sent before it (fewer hops),
   * so a snapshot that must run after such a call (`afterPendingCalls`) takes the public path.
   */
  private async snapshotJSON(timeoutMs: number, afterPendingCalls: boolean): Promise<unknown> {
    const started = Date.now();
    const json = afterPendingCalls ? undefined : await directSnapshotJSON(this.page, timeoutMs, this.watchDialogs);
    if (json !== undefined) return json;
    const left = Math.max(1, timeoutMs - (Date.now() - started));
    const raw = await this.page.ariaSnapshotJSON({ mode: 'ai', timeout: left });
    return surfacePublicTree(this.page, raw, Math.max(200, Math.min(2000, timeoutMs - (Date.now() - started))));
  }

  /**
   * A call in flight in the page would wait until a dialog is handled: a dialog that opens
   * aborts it with dialog_pending instead.
   */
  private readonly watchDialogs: StallWatch = (abort) => {
    this.dialogWatchers.add(abort);
    return () => this.dialogWatchers.delete(abort);
  };

  /** Was this ref handed out for a document the page has since left? */
  isStaleRef(ref: string): boolean {
    const epoch = this.issuedRefs.get(ref);
    return epoch !== undefined && epoch < this.navEpoch;
  }

  wasIssued(ref: string): boolean {
    return this.issuedRefs.has(ref);
  }
}
