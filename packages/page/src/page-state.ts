import { EventEmitter } from 'node:events';
import type { Dialog, Page, Request } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import { type AriaNode, normalizeTree, indexRefs } from './snapshot/tree.js';
import { RingBuffer } from './ring-buffer.js';

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
  dialog: [{ type: string; message: string }];
  popup: [{ page: Page }];
  download: [{ url: string; suggestedFilename: string }];
  requestfailed: [{ url: string; failure: string; method: string }];
  crash: [];
  close: [];
}

export interface SnapshotRecord {
  id: string;
  tree: AriaNode[];
  takenAt: number;
  /** navEpoch when taken: snapshots of different documents are not diffed. */
  epoch: number;
}

/** Per-tab log bounds: entries and bytes (characters of the stored strings). */
export const LOG_LIMITS = {
  consoleEntries: 1000,
  consoleBytes: 512 * 1024,
  networkEntries: 500,
  networkBytes: 512 * 1024,
  /** Longest URL kept in the network log (data: URLs can be megabytes). */
  urlChars: 2048,
};

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

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
  dialog: Dialog | null = null;
  crashed = false;
  closed = false;

  constructor(readonly id: string, readonly page: Page, readonly openerId?: string) {
    super();
    this.setMaxListeners(50);
    page.on('console', (msg) => {
      const loc = msg.location();
      this.pushConsole(msg.type(), msg.text(), loc.url ? `${clip(loc.url, 300)}:${loc.lineNumber}` : undefined);
      // Playwright keeps every console argument's handle alive until the document goes
      // away: on a page that logs without end that alone grew the server by gigabytes.
      for (const arg of msg.args()) void arg.dispose().catch(() => {});
    });
    page.on('pageerror', (err) => this.pushConsole('pageerror', err.stack || err.message));
    page.on('dialog', (d) => {
      this.dialog = d;
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
    });
    page.on('requestfinished', (req) => {
      const entry = this.requests.get(req);
      if (entry) entry.durationMs = Date.now() - entry.started;
    });
    page.on('requestfailed', (req) => {
      const entry = this.requests.get(req);
      const failure = req.failure()?.errorText ?? 'failed';
      if (entry) {
        entry.failure = failure;
        entry.durationMs = Date.now() - entry.started;
      }
      this.emit('requestfailed', { url: clip(req.url(), LOG_LIMITS.urlChars), failure, method: req.method() });
    });
  }

  private pushConsole(level: string, text: string, location?: string): void {
    const entry: ConsoleEntry = { seq: ++this.consoleSeq, time: new Date().toISOString(), level, text: text.slice(0, 4000), location };
    this.console.push(entry);
    this.emit('console', entry);
  }

  /** Update the cached title in the background (one read at a time, bounded). */
  refreshTitle(): Promise<void> {
    if (this.titleInFlight) return this.titleInFlight;
    if (this.closed || this.crashed) return Promise.resolve();
    const timer = new Promise<null>((r) => setTimeout(() => r(null), 2000).unref());
    this.titleInFlight = Promise.race([this.page.title().catch(() => null), timer])
      .then((t) => { if (typeof t === 'string') this.title = t; })
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
  async snapshot(timeoutMs: number): Promise<{ current: SnapshotRecord; previous: SnapshotRecord | null }> {
    this.assertNoDialog();
    const raw = await this.page.ariaSnapshotJSON({ mode: 'ai', timeout: timeoutMs });
    const tree = normalizeTree(raw);
    const previous = this.lastSnapshot;
    const current: SnapshotRecord = { id: `s${++this.snapshotSeq}`, tree, takenAt: Date.now(), epoch: this.navEpoch };
    this.lastSnapshot = current;
    for (const ref of indexRefs(tree).keys()) this.issuedRefs.set(ref, this.navEpoch);
    // Forget refs from long-gone documents so the map stays bounded.
    if (this.issuedRefs.size > 50_000) {
      for (const [ref, epoch] of this.issuedRefs) if (epoch < this.navEpoch - 2) this.issuedRefs.delete(ref);
    }
    return { current, previous };
  }

  /** Was this ref handed out for a document the page has since left? */
  isStaleRef(ref: string): boolean {
    const epoch = this.issuedRefs.get(ref);
    return epoch !== undefined && epoch < this.navEpoch;
  }

  wasIssued(ref: string): boolean {
    return this.issuedRefs.has(ref);
  }
}
