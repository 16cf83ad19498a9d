import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import { type EgressChannel, type EgressProxy, navigationGuard } from '@ariadne/egress';
import { installFrameWatch, setNavigationGuard } from '@ariadne/page';
import { disableFeaturesSwitch } from './chromium-features.js';

// The pool owns every Chromium process it starts. It keeps a few contexts warm (each
// with one page already open) so a lease does not pay newContext + newPage on the
// request path, caps contexts per browser and in total, replaces a browser that dies,
// and closes everything on shutdown.
//
// Tenant isolation (isolation: 'tenant'): a browser serves one tenant only. Browsers
// start unassigned ("spare", with warm contexts); a tenant's first lease claims one,
// and from then on it hosts that tenant's contexts alone. A tenant's browser with no
// lease for tenantBrowserIdleMs is closed (never handed to another tenant), a spare is
// kept ready for the next new tenant, and the total stays within maxBrowsers: when it
// is reached, an idle browser of another tenant is closed to make room.

export const DEFAULT_VIEWPORT = { width: 1600, height: 900 } as const;

/** Delay before a warm context taken by a lease is replaced. */
const REFILL_AFTER_LEASE_MS = 1000;

/** Without Chromium's sandbox (root, or no user namespaces): see resolveSandbox. */
export const NO_SANDBOX_FLAG = '--no-sandbox';

export const CHROMIUM_FLAGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  // WebRTC must not open UDP that bypasses the egress proxy (see docs/security.md, "Egress policy").
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
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
  /** Egress proxy: every context sends all its traffic through its own channel of it. */
  egress?: EgressProxy;
  /** tenant: a browser serves one tenant only; none: tenants share browsers (default). */
  isolation?: 'tenant' | 'none';
  /** Upper bound on browsers (tenant isolation launches them on demand). Default: browsers. */
  maxBrowsers?: number;
  /** A tenant's browser without a lease for this long is closed. */
  tenantBrowserIdleMs?: number;
  /** auto: sandbox where the host allows it (default); on: required; off: --no-sandbox. */
  sandbox?: 'auto' | 'on' | 'off';
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

/** Slots held by BrowserPool.reserve() for leases about to be acquired. */
export interface SlotReservation {
  /** One held slot for an acquire (undefined when all are taken). */
  take(): string | undefined;
  /** Give back the slots not taken. */
  release(): void;
}

export interface Lease {
  id: string;
  browserId: string;
  context: BrowserContext;
  /** The page the context was created with (warm contexts come with one). */
  page: Page;
  warm: boolean;
  acquiredAt: number;
  /** The context's egress proxy channel (denials are reported on it). */
  egress?: EgressChannel;
}

interface BrowserSlot {
  id: string;
  browser: Browser;
  pid: number | null;
  /** The only tenant this browser serves; null: spare (or isolation off). */
  tenant: string | null;
  /** Last lease or release on it (idle browsers of a tenant are closed). */
  lastUsed: number;
  leases: Set<string>;
  warm: Lease[];
  warming: number;
  /** Leases being made on it: picked, not yet in `leases` (an idle close must wait for them). */
  opening: number;
  closing: boolean;
  launchedAt: number;
}

export interface PoolStats {
  browsers: { id: string; pid: number | null; leased: number; warm: number; contexts: number; connected: boolean; dedicated: boolean }[];
  leased: number;
  warm: number;
  /** Warm contexts being created right now. */
  warming: number;
  /** Contexts Chromium really has open: equals leased + warm when nothing leaks and warming is 0. */
  contexts: number;
  capacity: number;
  available: number;
  restarts: number;
  /** Whether Chromium runs with its sandbox. */
  sandbox: boolean;
  isolation: 'tenant' | 'none';
}

export interface PoolEvents {
  'browser-crashed': [{ browserId: string; leaseIds: string[] }];
  'browser-restarted': [{ browserId: string; replacedId: string }];
  'browser-launched': [{ browserId: string; tenant: string | null }];
  'browser-closed': [{ browserId: string; tenant: string | null; reason: 'idle' | 'evicted' }];
}

export class BrowserPool extends EventEmitter<PoolEvents> {
  private readonly slots = new Map<string, BrowserSlot>();
  private readonly leases = new Map<string, { lease: Lease; slot: BrowserSlot }>();
  private launching = 0;
  private refilling = false;
  private refillAgain = false;
  private closed = false;
  private restarts = 0;
  /** Contexts that could not be closed even after their tabs were crashed. */
  stuckContexts = 0;
  private refillScheduled = false;
  private readonly log: PoolLogger;
  private noSandbox = true;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly isolated: boolean;
  private readonly maxBrowsers: number;

  constructor(private readonly opts: PoolOptions) {
    super();
    this.log = opts.logger ?? { info() {}, warn() {}, error() {} };
    this.isolated = opts.isolation === 'tenant';
    this.maxBrowsers = Math.max(opts.maxBrowsers ?? opts.browsers, opts.browsers);
  }

  async start(): Promise<void> {
    // The first launch decides whether Chromium can run sandboxed here.
    await this.resolveSandbox();
    await Promise.all(Array.from({ length: Math.max(0, this.opts.browsers - this.slots.size) }, () => this.launchBrowser(null)));
    await this.refill();
    if (this.isolated) {
      const every = Math.max(250, Math.min(5000, (this.opts.tenantBrowserIdleMs ?? 60_000) / 4));
      this.idleTimer = setInterval(() => void this.closeIdle().catch((err) => this.log.warn({ err: String(err) }, 'idle browser sweep failed')), every);
      this.idleTimer.unref();
    }
  }

  get sandboxed(): boolean {
    return !this.noSandbox;
  }

  /**
   * Chromium's sandbox needs a non-root user and user namespaces (or its setuid helper).
   * auto: root cannot, so it is off at once; otherwise a sandboxed launch is tried and,
   * if it fails, Chromium runs with --no-sandbox after one loud warning. on: a failed
   * sandboxed launch stops the start. off: --no-sandbox.
   */
  private async resolveSandbox(): Promise<void> {
    const mode = this.opts.sandbox ?? 'auto';
    if (mode === 'off') {
      this.noSandbox = true;
      this.log.warn({ sandbox: false }, 'CHROMIUM_SANDBOX=off: Chromium runs with --no-sandbox; a compromised renderer is not contained by the OS sandbox');
      return;
    }
    const root = typeof process.getuid === 'function' && process.getuid() === 0;
    if (root && mode === 'auto') {
      this.noSandbox = true;
      this.log.warn({ sandbox: false, reason: 'root' }, 'SECURITY: running as root, so Chromium runs WITHOUT its sandbox (--no-sandbox). Run the service as a non-root user with user namespaces available (see docs/security.md, "Chromium sandbox"), or set CHROMIUM_SANDBOX=off to acknowledge.');
      return;
    }
    this.noSandbox = false;
    try {
      if (root) throw new Error('Chromium refuses to run sandboxed as root');
      await this.launchBrowser(null);
      this.log.info({ sandbox: true }, 'Chromium runs with its sandbox');
    } catch (err) {
      const why = (err as Error).message.split('\n').find((l) => /sandbox|namespace|root/i.test(l)) ?? (err as Error).message.split('\n')[0];
      if (mode === 'on') throw new Error(`CHROMIUM_SANDBOX=on, but Chromium cannot start with its sandbox here: ${why}`);
      this.noSandbox = true;
      this.log.warn({ sandbox: false, reason: why }, 'SECURITY: Chromium cannot use its sandbox on this host, so it runs WITHOUT it (--no-sandbox). See docs/security.md, "Chromium sandbox", for the container set-up it needs.');
    }
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
      return { id: s.id, pid: s.pid, leased: s.leases.size, warm: s.warm.length, contexts: open, connected: s.browser.isConnected(), dedicated: s.tenant !== null };
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
      sandbox: !this.noSandbox,
      isolation: this.isolated ? 'tenant' : 'none',
    };
  }

  /** The tenant a browser serves ('' without isolation: one shared group). */
  private groupOf(tenant: string): string {
    return this.isolated ? tenant : '';
  }

  private live(slot: BrowserSlot): boolean {
    return !slot.closing && slot.browser.isConnected();
  }

  /** Browsers that may host this tenant's contexts: its own (or, without isolation, all). */
  private slotsOf(tenant: string): BrowserSlot[] {
    const g = this.groupOf(tenant);
    return [...this.slots.values()].filter((s) => this.live(s) && (g === '' ? true : s.tenant === g));
  }

  private spares(): BrowserSlot[] {
    return [...this.slots.values()].filter((s) => this.live(s) && s.tenant === null);
  }

  private claim(slot: BrowserSlot, tenant: string): BrowserSlot {
    if (this.isolated && slot.tenant === null) {
      slot.tenant = tenant;
      this.log.info({ browserId: slot.id, pid: slot.pid }, 'browser assigned to a tenant');
      // Keep a spare ready for the next new tenant.
      this.scheduleRefill(REFILL_AFTER_LEASE_MS);
    }
    slot.lastUsed = Date.now();
    return slot;
  }

  /**
   * Hold `count` slots now, synchronously, for leases acquired later with this
   * reservation. A caller with work to do before it leases (the tenant's quota in Redis)
   * reserves first: otherwise the slot looks free meanwhile and a second admission is
   * started for it, which then fails. Throws 503 capacity_exhausted when they are not free.
   */
  reserve(count: number): SlotReservation {
    if (this.closed) throw new AppError('shutting_down', 'The browser pool is shutting down.');
    if (this.leases.size + count > this.opts.maxContexts) {
      throw new AppError('capacity_exhausted', `All ${this.opts.maxContexts} browser contexts are in use.`, {
        capacity: this.opts.maxContexts, requested: count,
      });
    }
    const ids = Array.from({ length: count }, () => this.placeholder());
    return {
      take: () => ids.shift(),
      release: () => {
        for (const id of ids.splice(0)) this.leases.delete(id);
      },
    };
  }

  /** An entry in `leases` that holds a slot until the real lease replaces it. */
  private placeholder(): string {
    const id = `pending-${randomUUID()}`;
    this.leases.set(id, { lease: null as unknown as Lease, slot: null as unknown as BrowserSlot });
    return id;
  }

  /** Lease a context for a tenant. Throws 503 capacity_exhausted when every slot is taken. */
  async acquire(tenant: string, options: LeaseOptions = {}, held?: SlotReservation): Promise<Lease> {
    const reserved = held?.take();
    if (this.closed && reserved) this.leases.delete(reserved);
    // The slot is held synchronously (by the caller's reservation, or one of its own here)
    // so concurrent acquires cannot overshoot the cap; reserve() refuses a closed or full pool.
    const reservation = (this.closed ? undefined : reserved) ?? this.reserve(1).take()!;
    try {
      const { lease, slot } = await this.obtain(this.groupOf(tenant), options);
      slot.opening--;
      this.leases.delete(reservation);
      if (!this.slots.has(slot.id)) {
        // Crashed or closed at shutdown while the context was made (an idle close waits for it).
        await lease.context.close().catch(() => {});
        throw new AppError('capacity_exhausted', 'The browser chosen for this lease went away; retry.', { capacity: this.opts.maxContexts });
      }
      slot.leases.add(lease.id);
      slot.lastUsed = Date.now();
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

  /**
   * A context for the tenant, and its browser with `opening` raised: from the pick until
   * acquire() registers the lease the browser holds no lease, and closeIdle() (whose idle
   * time can be shorter than a context takes to make on a loaded host) closed it under us.
   */
  private async obtain(tenant: string, options: LeaseOptions): Promise<{ lease: Lease; slot: BrowserSlot }> {
    const needsFresh = Boolean(options.userAgent || options.locale || options.timezoneId || options.baseURL);
    if (!needsFresh) {
      const warm = this.takeWarm(tenant);
      const slot = warm && this.slots.get(warm.browserId);
      if (warm && slot) {
        try {
          return await this.openOn(slot, async () => {
            await this.adapt(warm, options);
            return { ...warm, acquiredAt: Date.now() };
          });
        } catch (err) {
          // A warm context on a browser that just died: fall through to a fresh one.
          this.log.warn({ err: String(err) }, 'warm context unusable; creating a fresh one');
          await warm.context.close().catch(() => {});
        }
      } else if (warm) {
        await warm.context.close().catch(() => {});
      }
    }
    const slot = await this.pickSlot(tenant);
    try {
      return await this.openOn(slot, () => this.createContext(slot, options, false));
    } catch (err) {
      // The browser crashed between the pick and the new page: pick again, once.
      if (!slot.closing && slot.browser.isConnected() && !/has been closed/.test(String(err))) throw err;
      this.log.warn({ err: String(err), browserId: slot.id }, 'browser closed while a context was being created on it; picking another');
      const again = await this.pickSlot(tenant);
      return this.openOn(again, () => this.createContext(again, options, false));
    }
  }

  /** Make a lease on `slot` with its `opening` raised; lowered again only when making it failed (acquire() lowers it on success). */
  private async openOn(slot: BrowserSlot, make: () => Promise<Lease>): Promise<{ lease: Lease; slot: BrowserSlot }> {
    slot.opening++;
    try {
      return { lease: await make(), slot };
    } catch (err) {
      slot.opening--;
      throw err;
    }
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

  private takeWarm(tenant: string): Lease | null {
    // Prefer the least-loaded browser's warm context: the tenant's own, else (a tenant's
    // first lease) a spare's, which makes that spare the tenant's. A spare's warm
    // contexts were never used by anyone.
    const pick = (slots: BrowserSlot[]) => slots.filter((s) => s.warm.length > 0).sort((a, b) => a.leases.size - b.leases.size)[0];
    const own = pick(this.slotsOf(tenant));
    if (own) return this.claim(own, tenant).warm.shift()!;
    if (!this.isolated || this.slotsOf(tenant).length > 0) return null;
    const spare = pick(this.spares());
    return spare ? this.claim(spare, tenant).warm.shift()! : null;
  }

  private hasRoom(s: BrowserSlot): boolean {
    return s.leases.size + s.opening + s.warm.length + s.warming < this.opts.maxContextsPerBrowser;
  }

  private async pickSlot(tenant: string): Promise<BrowserSlot> {
    const live = this.slotsOf(tenant);
    const candidates = live.filter((s) => this.hasRoom(s)).sort((a, b) => a.leases.size - b.leases.size);
    if (candidates[0]) return this.claim(candidates[0], tenant);
    // Every browser is full of warm contexts: evict a warm one rather than refuse.
    const withWarm = live.find((s) => s.warm.length > 0);
    if (withWarm) {
      const victim = withWarm.warm.pop()!;
      await victim.context.close().catch(() => {});
      return this.claim(withWarm, tenant);
    }
    if (!this.isolated) {
      if (live.length < this.opts.browsers || live.length === 0) return this.launchBrowser(null);
      return live.sort((a, b) => a.leases.size - b.leases.size)[0];
    }
    // The tenant needs a browser of its own: a spare, a new one, or one freed by closing
    // an idle browser of another tenant (least recently used first).
    const spare = this.spares().sort((a, b) => b.warm.length - a.warm.length)[0];
    if (spare) return this.claim(spare, tenant);
    if (this.slots.size + this.launching >= this.maxBrowsers) {
      const idle = [...this.slots.values()]
        .filter((s) => this.live(s) && s.leases.size === 0 && s.opening === 0 && s.tenant !== tenant)
        .sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (!idle) {
        throw new AppError('capacity_exhausted', `All ${this.maxBrowsers} browsers serve other tenants' live sessions; none can be given to this tenant now.`, {
          capacity: this.opts.maxContexts, browsers: this.maxBrowsers,
        });
      }
      await this.closeSlot(idle, 'evicted');
    }
    return this.launchBrowser(tenant);
  }

  /** Close a browser that holds no lease (idle tenant browser, or room for another tenant). */
  private async closeSlot(slot: BrowserSlot, reason: 'idle' | 'evicted'): Promise<void> {
    slot.closing = true;
    this.slots.delete(slot.id);
    this.log.info({ browserId: slot.id, pid: slot.pid, reason }, 'tenant browser closed');
    this.emit('browser-closed', { browserId: slot.id, tenant: slot.tenant, reason });
    await slot.browser.close().catch(() => {});
  }

  /** Close tenants' browsers that have had no lease for tenantBrowserIdleMs. */
  private async closeIdle(): Promise<void> {
    if (this.closed) return;
    const idleMs = this.opts.tenantBrowserIdleMs ?? 60_000;
    const now = Date.now();
    const idle = [...this.slots.values()].filter((s) => !s.closing && s.tenant !== null && s.leases.size === 0 && s.opening === 0 && s.warming === 0 && now - s.lastUsed >= idleMs);
    if (!idle.length) return;
    await Promise.all(idle.map((s) => this.closeSlot(s, 'idle')));
    this.scheduleRefill();
  }

  private async createContext(slot: BrowserSlot, options: LeaseOptions, warm: boolean): Promise<Lease> {
    // No proxy bypass list: playwright then adds <-loopback>, so Chromium sends even
    // localhost and 127.0.0.1 through the proxy (it bypasses loopback by default).
    const channel = this.opts.egress ? await this.opts.egress.open() : undefined;
    let context: BrowserContext;
    try {
      context = await this.newContext(slot, options, channel);
    } catch (err) {
      await channel?.close();
      throw err;
    }
    if (channel) {
      setNavigationGuard(context, navigationGuard(this.opts.egress!.policy, channel));
      context.once('close', () => void channel.close());
    }
    try {
      // Before any document: the settle look reads each document's pending animation frames.
      await installFrameWatch(context);
      const page = await context.newPage();
      return { id: randomUUID(), browserId: slot.id, context, page, warm, acquiredAt: Date.now(), ...(channel ? { egress: channel } : {}) };
    } catch (err) {
      await context.close().catch(() => {});
      throw err;
    }
  }

  private newContext(slot: BrowserSlot, options: LeaseOptions, channel: EgressChannel | undefined): Promise<BrowserContext> {
    return slot.browser.newContext({
      ...(channel ? { proxy: { server: channel.url } } : {}),
      viewport: options.viewport ?? DEFAULT_VIEWPORT,
      userAgent: options.userAgent,
      locale: options.locale,
      timezoneId: options.timezoneId,
      baseURL: options.baseURL,
      extraHTTPHeaders: options.extraHTTPHeaders,
      storageState: options.storageState,
      acceptDownloads: this.opts.acceptDownloads ?? true,
    });
  }

  /** Give a lease back: its context is closed (contexts are never reused across sessions). */
  async release(leaseId: string): Promise<void> {
    const entry = this.leases.get(leaseId);
    if (!entry) return;
    this.leases.delete(leaseId);
    entry.slot.leases.delete(leaseId);
    entry.slot.lastUsed = Date.now();
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
      void this.refillOnce();
    }, delayMs);
    timer.unref();
  }

  /**
   * One refill at a time: two at once each saw "no spare" while the other was still
   * launching one, and the pool kept two or three spare browsers. A refill asked for
   * while one runs runs once more after it.
   */
  private async refillOnce(): Promise<void> {
    if (this.refilling) {
      this.refillAgain = true;
      return;
    }
    this.refilling = true;
    try {
      do {
        this.refillAgain = false;
        await this.refill().catch((err) => this.log.warn({ err: String(err) }, 'warm refill failed'));
      } while (this.refillAgain && !this.closed);
    } finally {
      this.refilling = false;
    }
  }

  /**
   * Top the warm set back up, within the per-browser and total caps. With tenant
   * isolation the warm budget goes first to a spare browser (so a new tenant's first
   * lease is warm too), then to the browsers of the most recently active tenants, and
   * a spare browser is launched when none is left (within maxBrowsers).
   */
  private async refill(): Promise<void> {
    if (this.closed) return;
    if (this.isolated) await this.ensureSpare();
    const tasks: Promise<void>[] = [];
    const totalWarm = () => [...this.slots.values()].reduce((n, s) => n + s.warm.length + s.warming, 0);
    const room = () => this.opts.maxContexts - this.leases.size - totalWarm();
    const warmOf = (s: BrowserSlot) => s.warm.length + s.warming;
    const next = (): BrowserSlot | undefined => {
      const open = [...this.slots.values()].filter((s) => this.live(s) && this.hasRoom(s));
      if (!this.isolated) return open.sort((a, b) => warmOf(a) - warmOf(b))[0];
      // One warm context per group first (spares, then tenants by recency), then more.
      const byGroup = new Map<string, BrowserSlot[]>();
      for (const s of open) byGroup.set(s.tenant ?? '', [...(byGroup.get(s.tenant ?? '') ?? []), s]);
      const groups = [...byGroup.entries()].sort(([ga, a], [gb, b]) => {
        if ((ga === '') !== (gb === '')) return ga === '' ? -1 : 1;
        return Math.max(...b.map((x) => x.lastUsed)) - Math.max(...a.map((x) => x.lastUsed));
      });
      const groupWarm = (slots: BrowserSlot[]) => slots.reduce((n, x) => n + warmOf(x), 0);
      const idleMs = this.opts.tenantBrowserIdleMs ?? 60_000;
      // Tenants idle for half their browser's idle time get no new warm contexts.
      const eligible = groups.filter(([g, slots]) => g === '' || Date.now() - Math.max(...slots.map((x) => x.lastUsed)) < idleMs / 2);
      const least = Math.min(...eligible.map(([, slots]) => groupWarm(slots)));
      const group = eligible.find(([, slots]) => groupWarm(slots) === least);
      return group?.[1].sort((a, b) => a.leases.size - b.leases.size)[0];
    };
    while (totalWarm() < this.opts.warmContexts && room() > 0) {
      const slot = next();
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

  /** Keep one spare browser (and at least `browsers` in all) while under maxBrowsers. */
  private async ensureSpare(): Promise<void> {
    const live = [...this.slots.values()].filter((s) => this.live(s));
    const want = Math.max(this.opts.warmContexts > 0 && this.spares().length === 0 ? 1 : 0, this.opts.browsers - live.length);
    const launches: Promise<unknown>[] = [];
    for (let i = 0; i < want && this.slots.size + this.launching < this.maxBrowsers; i++) {
      launches.push(this.launchBrowser(null).catch((err) => this.log.warn({ err: String(err) }, 'could not launch a spare browser')));
    }
    await Promise.all(launches);
  }

  private async launchBrowser(tenant: string | null): Promise<BrowserSlot> {
    const id = randomUUID().slice(0, 8);
    this.launching++;
    try {
      const browser = await chromium.launch({
        executablePath: this.opts.chromiumPath,
        headless: this.opts.headless ?? true,
        timeout: this.opts.launchTimeoutMs ?? 30_000,
        // A marker switch (Chromium ignores unknown switches) lets us find our own pid.
        args: [...(this.noSandbox ? [NO_SANDBOX_FLAG] : []), ...CHROMIUM_FLAGS, disableFeaturesSwitch(), `--ariadne-browser=${id}`],
        // Playwright adds --no-sandbox itself unless told the sandbox is wanted.
        chromiumSandbox: !this.noSandbox,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      const slot: BrowserSlot = {
        id, browser, pid: findBrowserPid(id), tenant, lastUsed: Date.now(), leases: new Set(), warm: [], warming: 0, opening: 0, closing: false, launchedAt: Date.now(),
      };
      this.slots.set(id, slot);
      browser.on('disconnected', () => this.onDisconnected(slot));
      if (this.closed) {
        await browser.close().catch(() => {});
        throw new AppError('shutting_down', 'The browser pool is shutting down.');
      }
      this.log.info({ browserId: id, pid: slot.pid, dedicated: tenant !== null }, 'browser launched');
      this.emit('browser-launched', { browserId: id, tenant });
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
    // The replacement is a spare: it serves whichever tenant claims it next.
    this.launchBrowser(null)
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
    if (this.idleTimer) clearInterval(this.idleTimer);
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
