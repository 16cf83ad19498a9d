import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { AppError } from '@ariadne/schema';

// The pool owns every Chromium process it starts. It keeps a few contexts warm (each
// with one page already open) so a lease does not pay newContext + newPage on the
// request path, caps contexts per browser and in total, replaces a browser that dies,
// and closes everything on shutdown.

export const DEFAULT_VIEWPORT = { width: 1600, height: 900 } as const;

/** Delay before a warm context taken by a lease is replaced. */
const REFILL_AFTER_LEASE_MS = 1000;

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

export interface PoolLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface PoolOptions {
  chromiumPath: string;
  browsers: number;
  maxContextsPerBrowser: number;
  maxContexts: number;
  warmContexts: number;
  headless?: boolean;
  launchTimeoutMs?: number;
  /** Contexts accept downloads (default true); off: Chromium refuses every download. */
  acceptDownloads?: boolean;
  /** How long closing a context may take before its tabs are crashed and it is dropped. */
  contextCloseTimeoutMs?: number;
  logger?: PoolLogger;
}

/** Context options a warm context cannot take after the fact: these force a fresh context. */
export interface LeaseOptions {
  viewport?: { width: number; height: number };
  userAgent?: string;
  locale?: string;
  timezoneId?: string;
  baseURL?: string;
  extraHTTPHeaders?: Record<string, string>;
  storageState?: BrowserContextOptions['storageState'];
}

export interface Lease {
  id: string;
  browserId: string;
  context: BrowserContext;
  /** The page the context was created with (warm contexts come with one). */
  page: Page;
  warm: boolean;
  acquiredAt: number;
}

interface BrowserSlot {
  id: string;
  browser: Browser;
  pid: number | null;
  leases: Set<string>;
  warm: Lease[];
  warming: number;
  closing: boolean;
  launchedAt: number;
}

export interface PoolStats {
  browsers: { id: string; pid: number | null; leased: number; warm: number; contexts: number; connected: boolean }[];
  leased: number;
  warm: number;
  /** Warm contexts being created right now. */
  warming: number;
  /** Contexts Chromium really has open: equals leased + warm when nothing leaks and warming is 0. */
  contexts: number;
  capacity: number;
  available: number;
  restarts: number;
}

export interface PoolEvents {
  'browser-crashed': [{ browserId: string; leaseIds: string[] }];
  'browser-restarted': [{ browserId: string; replacedId: string }];
}

export class BrowserPool extends EventEmitter<PoolEvents> {
  private readonly slots = new Map<string, BrowserSlot>();
  private readonly leases = new Map<string, { lease: Lease; slot: BrowserSlot }>();
  private launching = 0;
  private closed = false;
  private restarts = 0;
  /** Contexts that could not be closed even after their tabs were crashed. */
  stuckContexts = 0;
  private refillScheduled = false;
  private readonly log: PoolLogger;

  constructor(private readonly opts: PoolOptions) {
    super();
    this.log = opts.logger ?? { info() {}, warn() {}, error() {} };
  }

  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.opts.browsers }, () => this.launchBrowser()));
    await this.refill();
  }

  get capacity(): number {
    return this.opts.maxContexts;
  }

  get leasedCount(): number {
    return this.leases.size;
  }

  stats(): PoolStats {
    let warm = 0;
    let warming = 0;
    let contexts = 0;
    const browsers = [...this.slots.values()].map((s) => {
      warm += s.warm.length;
      warming += s.warming;
      const open = s.browser.contexts().length;
      contexts += open;
      return { id: s.id, pid: s.pid, leased: s.leases.size, warm: s.warm.length, contexts: open, connected: s.browser.isConnected() };
    });
    return {
      browsers,
      leased: this.leases.size,
      warm,
      warming,
      contexts,
      capacity: this.opts.maxContexts,
      available: Math.max(0, this.opts.maxContexts - this.leases.size),
      restarts: this.restarts,
    };
  }

  /** Lease a context. Throws 503 capacity_exhausted when every slot is taken. */
  async acquire(options: LeaseOptions = {}): Promise<Lease> {
    if (this.closed) throw new AppError('shutting_down', 'The browser pool is shutting down.');
    if (this.leases.size >= this.opts.maxContexts) {
      throw new AppError('capacity_exhausted', `All ${this.opts.maxContexts} browser contexts are in use.`, {
        capacity: this.opts.maxContexts,
      });
    }
    // Reserve the slot synchronously so concurrent acquires cannot overshoot the cap.
    const reservation = `pending-${randomUUID()}`;
    const placeholder = { lease: null as unknown as Lease, slot: null as unknown as BrowserSlot };
    this.leases.set(reservation, placeholder);
    try {
      const lease = await this.obtain(options);
      this.leases.delete(reservation);
      const slot = this.slots.get(lease.browserId)!;
      slot.leases.add(lease.id);
      this.leases.set(lease.id, { lease, slot });
      return lease;
    } catch (err) {
      this.leases.delete(reservation);
      throw err;
    } finally {
      // Not at once: the context just handed out is about to serve its first requests,
      // and building its replacement on the same browser meanwhile slowed those down
      // (bench/lease-latency: lease about halved with the refill delayed).
      this.scheduleRefill(REFILL_AFTER_LEASE_MS);
    }
  }

  private async obtain(options: LeaseOptions): Promise<Lease> {
    const needsFresh = Boolean(options.userAgent || options.locale || options.timezoneId || options.baseURL);
    if (!needsFresh) {
      const warm = this.takeWarm();
      if (warm) {
        try {
          await this.adapt(warm, options);
          return { ...warm, acquiredAt: Date.now() };
        } catch (err) {
          // A warm context on a browser that just died: fall through to a fresh one.
          this.log.warn({ err: String(err) }, 'warm context unusable; creating a fresh one');
          await warm.context.close().catch(() => {});
        }
      }
    }
    const slot = await this.pickSlot();
    const lease = await this.createContext(slot, options, false);
    return lease;
  }

  private async adapt(lease: Lease, options: LeaseOptions): Promise<void> {
    const tasks: Promise<unknown>[] = [];
    if (options.viewport && (options.viewport.width !== DEFAULT_VIEWPORT.width || options.viewport.height !== DEFAULT_VIEWPORT.height)) {
      tasks.push(lease.page.setViewportSize(options.viewport));
    }
    if (options.extraHTTPHeaders) tasks.push(lease.context.setExtraHTTPHeaders(options.extraHTTPHeaders));
    if (options.storageState) tasks.push(lease.context.setStorageState(options.storageState as never));
    await Promise.all(tasks);
  }

  private takeWarm(): Lease | null {
    // Prefer the least-loaded browser's warm context.
    const slots = [...this.slots.values()]
      .filter((s) => !s.closing && s.browser.isConnected() && s.warm.length > 0)
      .sort((a, b) => a.leases.size - b.leases.size);
    const slot = slots[0];
    return slot ? slot.warm.shift()! : null;
  }

  private async pickSlot(): Promise<BrowserSlot> {
    const live = [...this.slots.values()].filter((s) => !s.closing && s.browser.isConnected());
    const candidates = live
      .filter((s) => s.leases.size + s.warm.length + s.warming < this.opts.maxContextsPerBrowser)
      .sort((a, b) => a.leases.size - b.leases.size);
    if (candidates[0]) return candidates[0];
    // Every browser is full of warm contexts: evict a warm one rather than refuse.
    const withWarm = live.find((s) => s.warm.length > 0);
    if (withWarm) {
      const victim = withWarm.warm.pop()!;
      await victim.context.close().catch(() => {});
      return withWarm;
    }
    if (live.length < this.opts.browsers || live.length === 0) return this.launchBrowser();
    const leastLoaded = live.sort((a, b) => a.leases.size - b.leases.size)[0];
    return leastLoaded;
  }

  private async createContext(slot: BrowserSlot, options: LeaseOptions, warm: boolean): Promise<Lease> {
    const context = await slot.browser.newContext({
      viewport: options.viewport ?? DEFAULT_VIEWPORT,
      userAgent: options.userAgent,
      locale: options.locale,
      timezoneId: options.timezoneId,
      baseURL: options.baseURL,
      extraHTTPHeaders: options.extraHTTPHeaders,
      storageState: options.storageState,
      acceptDownloads: this.opts.acceptDownloads ?? true,
    });
    try {
      const page = await context.newPage();
      return { id: randomUUID(), browserId: slot.id, context, page, warm, acquiredAt: Date.now() };
    } catch (err) {
      await context.close().catch(() => {});
      throw err;
    }
  }

  /** Give a lease back: its context is closed (contexts are never reused across sessions). */
  async release(leaseId: string): Promise<void> {
    const entry = this.leases.get(leaseId);
    if (!entry) return;
    this.leases.delete(leaseId);
    entry.slot.leases.delete(leaseId);
    await this.closeContext(entry.lease.context, entry.slot);
    this.scheduleRefill();
  }

  /**
   * Close a context within contextCloseTimeoutMs. A stuck page can hold the close: then
   * every renderer of the context is crashed over CDP (Page.crash works while the page's
   * main thread spins) and the close is tried once more; a context that still does not
   * close is given up (logged, counted in stuckContexts) and goes with its browser.
   */
  private async closeContext(context: BrowserContext, slot: BrowserSlot): Promise<void> {
    const bound = this.opts.contextCloseTimeoutMs ?? 5000;
    const closing = context.close().catch(() => {});
    if (await settledWithin(closing, bound)) return;
    this.log.warn({ browserId: slot.id, pages: context.pages().length }, 'context did not close in time: crashing its tabs');
    await Promise.all(context.pages().map(async (page) => {
      const cdp = await settle(context.newCDPSession(page), 2000);
      if (cdp) await settle(cdp.send('Page.crash'), 2000);
    }));
    if (await settledWithin(closing, bound)) return;
    this.stuckContexts++;
    this.log.error({ browserId: slot.id }, 'context could not be closed: given up (it goes when its browser is closed)');
  }

  private scheduleRefill(delayMs = 0): void {
    if (this.refillScheduled || this.closed) return;
    this.refillScheduled = true;
    const timer = setTimeout(() => {
      this.refillScheduled = false;
      this.refill().catch((err) => this.log.warn({ err: String(err) }, 'warm refill failed'));
    }, delayMs);
    timer.unref();
  }

  /** Top the warm set back up, within the per-browser and total caps. */
  private async refill(): Promise<void> {
    if (this.closed) return;
    const tasks: Promise<void>[] = [];
    const totalWarm = () => [...this.slots.values()].reduce((n, s) => n + s.warm.length + s.warming, 0);
    const room = () => this.opts.maxContexts - this.leases.size - totalWarm();
    while (totalWarm() < this.opts.warmContexts && room() > 0) {
      const slot = [...this.slots.values()]
        .filter((s) => !s.closing && s.browser.isConnected() && s.leases.size + s.warm.length + s.warming < this.opts.maxContextsPerBrowser)
        .sort((a, b) => a.warm.length + a.warming - (b.warm.length + b.warming))[0];
      if (!slot) break;
      slot.warming++;
      tasks.push(
        this.createContext(slot, {}, true)
          .then((lease) => {
            if (this.closed || slot.closing) return void lease.context.close().catch(() => {});
            slot.warm.push(lease);
          })
          .catch((err) => this.log.warn({ err: String(err), browserId: slot.id }, 'could not warm a context'))
          .finally(() => { slot.warming--; }),
      );
    }
    await Promise.all(tasks);
  }

  private async launchBrowser(): Promise<BrowserSlot> {
    const id = randomUUID().slice(0, 8);
    this.launching++;
    try {
      const browser = await chromium.launch({
        executablePath: this.opts.chromiumPath,
        headless: this.opts.headless ?? true,
        timeout: this.opts.launchTimeoutMs ?? 30_000,
        // A marker switch (Chromium ignores unknown switches) lets us find our own pid.
        args: [...CHROMIUM_FLAGS, `--ariadne-browser=${id}`],
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      const slot: BrowserSlot = {
        id, browser, pid: findBrowserPid(id), leases: new Set(), warm: [], warming: 0, closing: false, launchedAt: Date.now(),
      };
      this.slots.set(id, slot);
      browser.on('disconnected', () => this.onDisconnected(slot));
      if (this.closed) {
        await browser.close().catch(() => {});
        throw new AppError('shutting_down', 'The browser pool is shutting down.');
      }
      this.log.info({ browserId: id, pid: slot.pid }, 'browser launched');
      return slot;
    } finally {
      this.launching--;
    }
  }

  private onDisconnected(slot: BrowserSlot): void {
    this.slots.delete(slot.id);
    if (slot.closing || this.closed) return;
    const leaseIds = [...slot.leases];
    for (const id of leaseIds) this.leases.delete(id);
    this.log.error({ browserId: slot.id, pid: slot.pid, leases: leaseIds.length }, 'browser crashed or was killed');
    this.emit('browser-crashed', { browserId: slot.id, leaseIds });
    this.restarts++;
    this.launchBrowser()
      .then((replacement) => {
        this.emit('browser-restarted', { browserId: replacement.id, replacedId: slot.id });
        return this.refill();
      })
      .catch((err) => this.log.error({ err: String(err) }, 'could not replace a crashed browser'));
  }

  /** Close every context and browser; no Chromium process is left behind. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Wait for launches in flight so their browsers are closed too.
    while (this.launching > 0) await new Promise((r) => setTimeout(r, 20));
    await Promise.all(
      [...this.slots.values()].map(async (slot) => {
        slot.closing = true;
        await slot.browser.close().catch(() => {});
      }),
    );
    this.slots.clear();
    this.leases.clear();
  }
}

async function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const ok = await Promise.race([p.then(() => true, () => true), new Promise<boolean>((r) => { timer = setTimeout(() => r(false), ms); })]);
  clearTimeout(timer);
  return ok;
}

async function settle<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const v = await Promise.race([p.catch(() => null), new Promise<null>((r) => { timer = setTimeout(() => r(null), ms); })]);
  clearTimeout(timer);
  return v;
}

/** Find the pid of the browser process launched with our marker switch (Linux /proc). */
export function findBrowserPid(marker: string): number | null {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let cmd: string;
      try {
        cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      if (cmd.includes(`--ariadne-browser=${marker}`) && !cmd.includes('--type=')) return Number(entry);
    }
  } catch {
    /* not Linux */
  }
  return null;
}
