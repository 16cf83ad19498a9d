import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { AppError, type CreateSessionBody, type PageInfo, type RoleSpec, type Session, type SessionStatus } from '@ariadne/schema';
import type { SessionRecord, SessionStore } from '@ariadne/cluster';
import { PageState, checkNavigationUrl, guardNavigation, runNavigation, setContextBaseURL, toAppError } from '@ariadne/page';
import { type BrowserPool, type Lease, type SlotReservation, DEFAULT_VIEWPORT, type PoolLogger } from './browser-pool.js';
import type { Denial } from '@ariadne/egress';
import { operationTimeout, settledWithin, withDeadline } from './deadline.js';
import { guardDownload, type DownloadLimits } from './download-guard.js';

// Sessions and roles: one leased browser context per role, tabs per role, idle and
// absolute timeouts, and crash marking. The record of every session lives in Redis
// (SessionStore); the live Playwright objects live here, in the owning process.

export interface SessionManagerOptions {
  nodeId: string;
  defaultIdleTimeoutSeconds: number;
  defaultTtlSeconds: number;
  maxTtlSeconds: number;
  navigationTimeoutMs: number;
  allowedSchemes: string[];
  /** Deadline of an operation on a tab that names none (docs/security.md, "Limits"). */
  operationTimeoutMs?: number;
  /** Open tabs per role; popups over it are closed, openTab answers 409 tab_limit. */
  maxTabsPerRole?: number;
  /** Downloads: allowed at all, and bytes per session. */
  downloads?: DownloadLimits;
  /** How long DELETE / expiry wait for the contexts to close before answering anyway. */
  endWaitMs?: number;
  sweepIntervalMs?: number;
  logger?: PoolLogger;
  /** Per-tenant quotas (cluster-wide): asked before contexts are leased, told when they are given back. */
  gate?: SessionGate;
}

/** Takes a tenant's quota holds or throws (429); releases them. TenantQuotas implements it. */
export interface SessionGate {
  takeSession(tenant: string, sessionId: string, roles: string[]): Promise<void>;
  /** Throws what takeSession would for a session of `contexts` roles; takes nothing. */
  check(tenant: string, contexts: number): Promise<void>;
  takeContext(tenant: string, sessionId: string, role: string): Promise<void>;
  releaseSession(tenant: string, sessionId: string, roles: string[]): Promise<void>;
  releaseContext(tenant: string, sessionId: string, role: string): Promise<void>;
}

/** Serializes work on one tab: commands on one page run in order. */
class TabQueue {
  private tail: Promise<unknown> = Promise.resolve();
  /** The operation running now, and when its deadline passed (if it did). */
  current: { op: string; startedAt: number; deadline: number } | null = null;
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => {});
    return next;
  }
  /** The running operation outlived its deadline: the tab does not answer. */
  stuck(now = Date.now()): { op: string; runningMs: number } | null {
    const c = this.current;
    return c && now > c.deadline ? { op: c.op, runningMs: now - c.startedAt } : null;
  }
}

export interface RunOptions {
  /** Deadline of the whole call, queue wait included. */
  deadlineMs?: number;
  /** What runs, for errors and for the tab-busy answer. */
  op?: string;
}

export function pageCrashedError(state: PageState): AppError {
  return new AppError('page_crashed', `Tab ${state.id} crashed (its renderer died); calls on it fail until it is closed.`, {
    pageId: state.id,
    hint: 'Close the tab (DELETE .../pages/:pageId) and open a new one (POST .../pages); a role keeps its other tabs.',
  });
}

export class LiveRole {
  readonly pages = new Map<string, PageState>();
  readonly queues = new Map<string, TabQueue>();
  activePageId = '';
  /** openTab() calls in flight (their pages are not popups), and popups closed over the cap. */
  opening = 0;
  adopting = 0;
  tabsRefused = 0;
  private pageSeq = 0;

  constructor(
    readonly name: string,
    readonly lease: Lease,
    readonly viewport: { width: number; height: number },
    readonly baseURL: string | undefined,
    private readonly onPageEvent: (role: LiveRole, state: PageState) => void,
    private readonly session?: LiveSession,
  ) {}

  get context(): BrowserContext {
    return this.lease.context;
  }

  adopt(page: Page, openerId?: string): PageState {
    const id = `p${++this.pageSeq}`;
    const state = new PageState(id, page, openerId);
    const channel = this.lease.egress;
    if (channel) {
      state.egressDenial = (url) => {
        try {
          const u = new URL(url);
          const d = channel.recentDenial(u.hostname, Number(u.port) || (/^(https|wss):$/.test(u.protocol) ? 443 : 80), 10_000);
          return d ? { host: d.host, reason: d.reason } : undefined;
        } catch {
          return undefined;
        }
      };
    }
    this.pages.set(id, state);
    this.queues.set(id, new TabQueue());
    if (!this.activePageId) this.activePageId = id;
    page.on('close', () => {
      this.pages.delete(id);
      this.queues.delete(id);
      if (this.activePageId === id) this.activePageId = [...this.pages.keys()].pop() ?? '';
    });
    this.onPageEvent(this, state);
    return state;
  }

  page(pageId?: string): PageState {
    const id = pageId ?? this.activePageId;
    const state = this.pages.get(id);
    if (!state) {
      throw new AppError('page_not_found', pageId ? `No tab ${pageId} in role ${this.name}.` : `Role ${this.name} has no open tab.`, {
        pageId: pageId ?? null,
        pages: [...this.pages.keys()],
      });
    }
    return state;
  }

  /**
   * Run fn on a tab, after any command already running on it, within a deadline (queue
   * wait included). A crashed tab fails at once (410 page_crashed); a tab whose running
   * command is past its deadline answers the next ones at once (504 operation_timeout)
   * instead of queueing them behind a call that may never return.
   */
  async run<T>(pageId: string | undefined, fn: (state: PageState) => Promise<T>, opts: RunOptions = {}): Promise<T> {
    const state = this.page(pageId);
    if (state.crashed) throw pageCrashedError(state);
    const queue = this.queues.get(state.id)!;
    const op = opts.op ?? 'operation';
    const deadlineMs = opts.deadlineMs ?? this.session?.defaultDeadlineMs ?? 0;
    const stuck = queue.stuck();
    if (stuck) {
      const e = operationTimeout(`"${op}" on tab ${state.id}`, deadlineMs, { pageId: state.id, busyWith: stuck.op, busyForMs: stuck.runningMs });
      throw new AppError('operation_timeout', `Tab ${state.id} does not answer: "${stuck.op}" has been running on it for ${Math.round(stuck.runningMs / 1000)} s, past its deadline, so "${op}" was not queued behind it.`, e.details);
    }
    const session = this.session;
    let abandoned = false;
    const work = queue.run(async () => {
      if (abandoned) throw operationTimeout(`"${op}" on tab ${state.id}`, deadlineMs, { pageId: state.id });
      if (state.crashed) throw pageCrashedError(state);
      const startedAt = Date.now();
      queue.current = { op, startedAt, deadline: deadlineMs ? startedAt + deadlineMs : Number.POSITIVE_INFINITY };
      try {
        return await fn(state);
      } finally {
        queue.current = null;
      }
    });
    // A crash ends the call at once, whatever Playwright is waiting for.
    let onCrash: (() => void) | undefined;
    const crashed = new Promise<never>((_, reject) => {
      onCrash = () => reject(pageCrashedError(state));
      state.once('crash', onCrash);
    });
    crashed.catch(() => {});
    // Queued and running work counts as use: a long action must not idle the session out
    // (but only until its deadline: a stuck call must not keep a session alive for ever).
    if (session) session.busy++;
    try {
      const raced = Promise.race([work, crashed]);
      return await (deadlineMs ? withDeadline(raced, deadlineMs, `"${op}" on tab ${state.id}`, { pageId: state.id }) : raced);
    } catch (err) {
      abandoned = true;
      // Cut short because the session ended (DELETE, TTL, crash): say that, not
      // "the context is gone".
      throw session?.endedError() ?? (state.crashed ? pageCrashedError(state) : err);
    } finally {
      if (onCrash) state.off('crash', onCrash);
      if (session) {
        session.busy--;
        session.lastUsed = Date.now();
      }
    }
  }

  /** The tabs, with their last known titles: never waits on a page (titles refresh in the background). */
  /** Fresh titles if the tabs answer within ms (a stuck tab keeps its last one). */
  async refreshTitles(ms = 300): Promise<void> {
    await settledWithin(Promise.all([...this.pages.values()].map((s) => s.refreshTitle())), ms);
  }

  pageInfos(): PageInfo[] {
    return [...this.pages.values()].map((s) => ({
      id: s.id,
      url: s.page.url(),
      title: s.title,
      active: s.id === this.activePageId,
      ...(s.openerId ? { openerId: s.openerId } : {}),
    }));
  }
}

export class LiveSession {
  readonly roles = new Map<string, LiveRole>();
  lastUsed = Date.now();
  /** Open streams watching this session: while any is open it does not idle out. */
  holds = 0;
  /** Page operations queued or running on its tabs: while any is, it does not idle out. */
  busy = 0;
  lastFlushed = 0;
  ending = false;
  /** Set as soon as end() starts, before Redis knows. */
  ended: { status: Exclude<SessionStatus, 'active'>; reason: string } | null = null;
  /** Deadline of page work that names none (SessionManagerOptions.operationTimeoutMs). */
  defaultDeadlineMs = 0;
  /** Bytes of downloads written by this session (all roles), against the download cap. */
  downloadBytes = 0;
  constructor(public record: SessionRecord) {}

  endedError(): AppError | null {
    if (!this.ended) return null;
    const { status, reason } = this.ended;
    return new AppError(END_CODES[status], `Session ${this.record.id} is ${status} (${reason}).`, { sessionId: this.record.id, status, reason });
  }

  role(name: string): LiveRole {
    const r = this.roles.get(name);
    if (!r) throw new AppError('role_not_found', `Session has no role "${name}".`, { role: name, roles: [...this.roles.keys()] });
    return r;
  }
}

export interface SessionManagerEvents {
  'session-ended': [{ id: string; status: SessionStatus; reason: string }];
  'session-expiring': [{ id: string; inSeconds: number; reason: 'idle' | 'ttl' }];
  'page-created': [{ sessionId: string; role: string; state: PageState }];
  /** A limit refused something (a tab over the cap, a download over the byte cap or off). */
  'limit-reached': [{ sessionId: string; role: string; page?: string; data: Record<string, unknown> }];
  /** A context was leased for a role / given back: the cluster's lease registry follows these. */
  'lease-acquired': [{ id: string; sessionId: string; role: string; tenant: string }];
  'lease-released': [{ id: string }];
  /** The egress proxy refused a connection of this role's context (rate-limited per host). */
  'egress-denied': [{ sessionId: string; role: string; denial: Denial }];
}

const END_CODES: Record<Exclude<SessionStatus, 'active'>, 'session_crashed' | 'session_expired' | 'session_closed' | 'session_lost'> = {
  crashed: 'session_crashed',
  expired: 'session_expired',
  closed: 'session_closed',
  lost: 'session_lost',
};

export class SessionManager extends EventEmitter<SessionManagerEvents> {
  private readonly live = new Map<string, LiveSession>();
  private readonly byLease = new Map<string, { sessionId: string; role: string; tenant: string }>();
  private sweeper: NodeJS.Timeout | null = null;
  /** Sessions being ended: gone from `live`, not yet marked ended in Redis. */
  private readonly ending = new Map<string, LiveSession>();
  /** Quota decisions of creations holding pool slots: a refused one gives its slots back. */
  private readonly quotaDecisions = new Set<Promise<void>>();
  private closing = false;
  private readonly log: PoolLogger;

  constructor(private readonly pool: BrowserPool, private readonly store: SessionStore, private readonly opts: SessionManagerOptions) {
    super();
    this.setMaxListeners(100);
    this.log = opts.logger ?? { info() {}, warn() {}, error() {} };
    pool.on('browser-crashed', ({ leaseIds }) => {
      const sessions = new Set(leaseIds.map((l) => this.byLease.get(l)?.sessionId).filter((s): s is string => Boolean(s)));
      for (const id of sessions) void this.end(id, 'crashed', 'browser_crashed').catch(() => {});
    });
  }

  start(): void {
    const every = this.opts.sweepIntervalMs ?? 1000;
    this.sweeper = setInterval(() => void this.sweep().catch((err) => this.log.warn({ err: String(err) }, 'sweep failed')), every);
    this.sweeper.unref();
  }

  get liveCount(): number {
    return this.live.size;
  }

  /** Every context this node holds, for the cluster heartbeat. */
  leases(): { id: string; sessionId: string; role: string; tenant: string }[] {
    return [...this.byLease.entries()].map(([id, l]) => ({ id, ...l }));
  }

  isLocal(id: string): boolean {
    return this.live.has(id);
  }

  liveSessions(): LiveSession[] {
    return [...this.live.values()];
  }

  async create(tenant: string, body: CreateSessionBody): Promise<Session> {
    if (this.closing) throw new AppError('shutting_down', 'The server is shutting down.');
    const specs: RoleSpec[] = body.roles?.length ? body.roles : [{ name: 'default' }];
    const names = specs.map((r) => r.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) throw new AppError('invalid_request', `Role "${dup}" is given twice.`, { field: 'roles', role: dup });
    const ttl = Math.min(body.ttlSeconds ?? this.opts.defaultTtlSeconds, this.opts.maxTtlSeconds);
    const now = new Date();
    const record: SessionRecord = {
      id: randomUUID(),
      tenant,
      status: 'active',
      node: this.opts.nodeId,
      createdAt: now.toISOString(),
      lastUsedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + ttl * 1000).toISOString(),
      idleTimeoutSeconds: body.idleTimeoutSeconds ?? this.opts.defaultIdleTimeoutSeconds,
      ...(body.metadata ? { metadata: body.metadata } : {}),
      roles: specs.map((r) => ({ name: r.name, viewport: r.viewport ?? { ...DEFAULT_VIEWPORT } })),
    };
    const session = new LiveSession(record);
    const gate = this.opts.gate;
    // The pool's slots are held before the first await (the admission queue counts on
    // it: a slot that still looks free while the quota is checked would be promised twice).
    let held: SlotReservation;
    for (;;) {
      try {
        held = this.pool.reserve(specs.length);
        break;
      } catch (err) {
        // Slots held by creations whose quota is still being decided come back if they are
        // refused: wait for those decisions before saying the node is full, so the answer
        // does not depend on timing (a tenant over its share hears quota_exceeded).
        if (await this.quotaDecisionsSettled()) continue;
        // A tenant over its quota hears that, not that the node is full.
        await gate?.check(tenant, names.length);
        throw err;
      }
    }
    // The tenant's quota next: a refused request leases nothing (its slots are given back
    // before anyone waiting on the decision looks again).
    const decision = (gate ? gate.takeSession(tenant, record.id, names) : Promise.resolve()).then(() => {}, (err: unknown) => {
      held.release();
      throw err;
    });
    this.quotaDecisions.add(decision);
    try {
      await decision;
    } finally {
      this.quotaDecisions.delete(decision);
    }
    const giveBack = async () => {
      await Promise.all([...session.roles.values()].map((r) => this.releaseRole(r)));
      await gate?.releaseSession(tenant, record.id, names).catch(() => {});
    };
    session.defaultDeadlineMs = this.opts.operationTimeoutMs ?? 0;
    // Lease all roles; if any fails, give back the ones we got (nothing leaks).
    const results = await Promise.allSettled(specs.map((spec, i) => this.openRole(session, spec, `roles.${i}.`, held)));
    held.release();
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await giveBack();
      throw failed.reason;
    }
    try {
      await this.store.create(record);
    } catch (err) {
      await giveBack();
      throw err;
    }
    // The idle clock starts when the caller gets the session, not before its leases:
    // leasing several contexts on a busy machine can take longer than a short idle timeout.
    session.lastUsed = Date.now();
    this.live.set(record.id, session);
    this.log.info({ sessionId: record.id, tenant, roles: names }, 'session created');
    return this.describe(session);
  }

  /** fieldPrefix locates the spec in the request body, for errors: "roles.1." or "". */
  private async openRole(session: LiveSession, spec: RoleSpec, fieldPrefix: string, held?: SlotReservation): Promise<LiveRole> {
    if (spec.baseURL) {
      try {
        checkNavigationUrl(spec.baseURL, this.opts.allowedSchemes);
      } catch (err) {
        const e = err as AppError;
        throw new AppError(e.code, `baseURL: ${e.message}`, { ...e.details, field: `${fieldPrefix}baseURL` });
      }
    }
    let lease: Lease;
    try {
      lease = await this.pool.acquire(session.record.tenant, {
        viewport: spec.viewport,
        userAgent: spec.userAgent,
        locale: spec.locale,
        timezoneId: spec.timezoneId,
        baseURL: spec.baseURL,
        extraHTTPHeaders: spec.extraHTTPHeaders,
        storageState: spec.storageState as never,
      }, held);
    } catch (err) {
      throw contextOptionError(err, spec, fieldPrefix);
    }
    const viewport = spec.viewport ?? { ...DEFAULT_VIEWPORT };
    if (spec.baseURL) setContextBaseURL(lease.context, spec.baseURL);
    const role = new LiveRole(spec.name, lease, viewport, spec.baseURL, (r, state) => {
      this.emit('page-created', { sessionId: session.record.id, role: r.name, state });
      state.page.on('download', (d) => void this.onDownload(session, r, state, d));
    }, session);
    session.roles.set(spec.name, role);
    this.byLease.set(lease.id, { sessionId: session.record.id, role: spec.name, tenant: session.record.tenant });
    this.emit('lease-acquired', { id: lease.id, sessionId: session.record.id, role: spec.name, tenant: session.record.tenant });
    lease.egress?.on('denied', (denial) => {
      this.log.info({ sessionId: session.record.id, role: spec.name, host: denial.host, port: denial.port, reason: denial.reason, kind: denial.kind }, 'egress denied');
      this.emit('egress-denied', { sessionId: session.record.id, role: spec.name, denial });
    });
    role.adopt(lease.page);
    // Popups and pages opened by the page show up as tabs of the role.
    lease.context.on('page', (page) => void this.adoptPopup(role, page));
    return role;
  }

  private async adoptPopup(role: LiveRole, page: Page): Promise<void> {
    if ([...role.pages.values()].some((s) => s.page === page)) return;
    const max = this.opts.maxTabsPerRole;
    // Popups being adopted count at once (adoption awaits the opener): a burst of window.open
    // cannot slip past the cap. A page openTab() is creating is not a popup.
    if (max && role.opening === 0 && role.pages.size + role.adopting >= max) {
      // Over the cap: the popup is closed before the role adopts it, and the stream says so.
      const url = page.url();
      void page.close({ runBeforeUnload: false }).catch(() => {});
      role.tabsRefused++;
      const sessionId = this.sessionOfRole(role);
      this.log.warn({ sessionId, role: role.name, max }, 'popup over the tab cap closed');
      if (sessionId) {
        this.emit('limit-reached', {
          sessionId, role: role.name,
          data: { limit: 'tabs_per_role', max, action: 'popup_closed', url: url.slice(0, 2048), refused: role.tabsRefused },
        });
      }
      return;
    }
    role.adopting++;
    let opener: Page | null;
    try {
      opener = await page.opener().catch(() => null);
    } finally {
      role.adopting--;
    }
    // openTab() may have adopted it meanwhile.
    if ([...role.pages.values()].some((s) => s.page === page)) return;
    if (page.isClosed()) return;
    const openerState = [...role.pages.values()].find((s) => s.page === opener);
    role.adopt(page, openerState?.id);
    if (role.viewport.width !== DEFAULT_VIEWPORT.width || role.viewport.height !== DEFAULT_VIEWPORT.height) {
      await page.setViewportSize(role.viewport).catch(() => {});
    }
  }

  private async releaseRole(role: LiveRole): Promise<void> {
    if (this.byLease.delete(role.lease.id)) this.emit('lease-released', { id: role.lease.id });
    await this.pool.release(role.lease.id);
  }

  /** The live session for an operation; checks tenant and status, and marks it used. */
  async use(tenant: string, id: string): Promise<LiveSession> {
    const s = this.live.get(id);
    if (s && s.record.tenant === tenant && !s.ending) {
      s.lastUsed = Date.now();
      if (s.lastUsed - s.lastFlushed > 5000) {
        s.lastFlushed = s.lastUsed;
        s.record.lastUsedAt = new Date(s.lastUsed).toISOString();
        void this.store.put(s.record).catch(() => {});
      }
      return s;
    }
    // Not live here: say why (ended, another tenant's, elsewhere, unknown).
    throw await this.whyUnavailable(tenant, id);
  }

  private async whyUnavailable(tenant: string, id: string): Promise<AppError> {
    const e = this.ending.get(id);
    if (e && e.record.tenant === tenant && e.ended) return e.endedError()!;
    return this.unavailable(tenant, id, await this.store.get(id));
  }

  private unavailable(tenant: string, id: string, rec: SessionRecord | null): AppError {
    if (!rec || rec.tenant !== tenant) return new AppError('session_not_found', `No session ${id}.`, { sessionId: id });
    if (rec.status !== 'active') {
      return new AppError(END_CODES[rec.status], `Session ${id} is ${rec.status}${rec.endReason ? ` (${rec.endReason})` : ''}.`, {
        sessionId: id,
        status: rec.status,
        reason: rec.endReason,
        endedAt: rec.endedAt,
      });
    }
    // Active in Redis but owned by a node that is not this one.
    return new AppError('session_not_found', `Session ${id} lives on node ${rec.node}, not on this node.`, { sessionId: id, node: rec.node });
  }

  async get(tenant: string, id: string): Promise<Session> {
    const s = this.live.get(id);
    if (s && s.record.tenant === tenant && !s.ending) return this.describe(s);
    const e = this.ending.get(id);
    if (e && e.record.tenant === tenant && e.ended) throw e.endedError()!;
    const rec = await this.store.get(id);
    // Active but owned by another node: its record is the answer (the cluster forwards live calls).
    if (rec && rec.tenant === tenant && rec.status === 'active' && rec.node !== this.opts.nodeId) return this.describeRecord(rec);
    throw this.unavailable(tenant, id, rec);
  }

  async list(tenant: string): Promise<Session[]> {
    const records = await this.store.listByTenant(tenant);
    return Promise.all(records.map(async (rec) => {
      const s = this.live.get(rec.id);
      return s ? this.describe(s) : this.describeRecord(rec);
    }));
  }

  async delete(tenant: string, id: string): Promise<void> {
    const s = this.live.get(id);
    if (!s || s.record.tenant !== tenant || s.ending) throw await this.whyUnavailable(tenant, id);
    await this.end(id, 'closed', 'deleted');
  }

  async addRole(tenant: string, id: string, spec: RoleSpec): Promise<Session> {
    const s = await this.use(tenant, id);
    if (s.roles.has(spec.name)) throw new AppError('role_exists', `Role "${spec.name}" already exists in this session.`, { role: spec.name });
    if (s.roles.size >= 16) throw new AppError('invalid_request', 'A session has at most 16 roles.', { field: 'name' });
    const gate = this.opts.gate;
    await gate?.takeContext(tenant, id, spec.name);
    try {
      await this.openRole(s, spec, '');
    } catch (err) {
      await gate?.releaseContext(tenant, id, spec.name).catch(() => {});
      throw err;
    }
    if (s.ending || !this.live.has(id)) {
      // The session ended while we leased: give the context back.
      const r = s.roles.get(spec.name);
      if (r) await this.releaseRole(r);
      await gate?.releaseContext(tenant, id, spec.name).catch(() => {});
      throw await this.whyUnavailable(tenant, id);
    }
    s.record.roles.push({ name: spec.name, viewport: spec.viewport ?? { ...DEFAULT_VIEWPORT } });
    await this.store.put(s.record);
    return this.describe(s);
  }

  async removeRole(tenant: string, id: string, name: string): Promise<Session> {
    const s = await this.use(tenant, id);
    const role = s.role(name);
    s.roles.delete(name);
    s.record.roles = s.record.roles.filter((r) => r.name !== name);
    await this.releaseRole(role);
    await this.opts.gate?.releaseContext(tenant, id, name).catch(() => {});
    await this.store.put(s.record);
    return this.describe(s);
  }

  /** Every download goes through the guard; a refused or cancelled one is a limit_reached event. */
  private async onDownload(session: LiveSession, role: LiveRole, state: PageState, download: import('playwright-core').Download): Promise<void> {
    const limits = this.opts.downloads;
    if (!limits) return;
    const verdict = await guardDownload(download, session, limits).catch(() => null);
    if (!verdict || verdict.outcome === 'finished' || verdict.outcome === 'failed') return;
    const data = {
      limit: verdict.limit,
      action: verdict.outcome === 'refused' ? 'download_refused' : 'download_cancelled_and_deleted',
      url: download.url().slice(0, 2048),
      suggestedFilename: download.suggestedFilename().slice(0, 256),
      ...(verdict.outcome === 'cancelled' ? { bytesWritten: verdict.bytesWritten, max: verdict.max, sessionBytes: session.downloadBytes } : {}),
    };
    this.log.warn({ sessionId: session.record.id, role: role.name, ...data, url: undefined }, 'download refused by a limit');
    this.emit('limit-reached', { sessionId: session.record.id, role: role.name, page: state.id, data });
  }

  private sessionOfRole(role: LiveRole): string | undefined {
    return this.byLease.get(role.lease.id)?.sessionId;
  }

  async openTab(role: LiveRole, url?: string): Promise<PageState> {
    const target = url ? checkNavigationUrl(url, this.opts.allowedSchemes, undefined, role.baseURL) : undefined;
    if (target) await guardNavigation(role.lease.page, target);
    const max = this.opts.maxTabsPerRole;
    if (max && role.pages.size + role.opening >= max) {
      throw new AppError('tab_limit', `Role "${role.name}" has ${role.pages.size} open tabs, the most allowed (MAX_TABS_PER_ROLE=${max}).`, {
        role: role.name, max, open: role.pages.size, hint: 'Close a tab first (DELETE .../pages/:pageId).',
      });
    }
    role.opening++;
    let page: Page;
    try {
      page = await withDeadline(role.context.newPage(), Math.max(this.opts.operationTimeoutMs ?? 20_000, 15_000), 'Opening a tab');
    } finally {
      role.opening--;
    }
    const state = [...role.pages.values()].find((p) => p.page === page) ?? role.adopt(page);
    if (role.viewport.width !== DEFAULT_VIEWPORT.width || role.viewport.height !== DEFAULT_VIEWPORT.height) {
      await page.setViewportSize(role.viewport);
    }
    role.activePageId = state.id;
    if (target) {
      try {
        await runNavigation(page, () => page.goto(target, { waitUntil: 'load', timeout: this.opts.navigationTimeoutMs }));
      } catch (err) {
        throw toAppError(err, { action: 'navigate', state });
      }
    }
    return state;
  }

  async closeTab(role: LiveRole, pageId: string): Promise<void> {
    const state = role.page(pageId);
    if (role.pages.size === 1) {
      throw new AppError('last_page', 'A role keeps at least one tab open; remove the role or delete the session instead.', { pageId });
    }
    // A stuck renderer can hold page.close(): bounded, the tab is forgotten either way.
    const closed = await settledWithin(state.page.close({ runBeforeUnload: false }), this.opts.operationTimeoutMs ?? 20_000);
    if (!closed) {
      this.log.warn({ pageId, role: role.name }, 'tab did not close in time: dropped from the role');
      role.pages.delete(state.id);
      role.queues.delete(state.id);
      if (role.activePageId === state.id) role.activePageId = [...role.pages.keys()].pop() ?? '';
    }
  }

  selectTab(role: LiveRole, pageId: string): void {
    const state = role.page(pageId);
    role.activePageId = state.id;
    void state.page.bringToFront().catch(() => {});
  }

  /** Never waits on a page: titles are the last ones seen (a stuck tab cannot hold a listing). */
  async describe(s: LiveSession): Promise<Session> {
    // In the order the roles were asked for (leases complete in any order).
    const ordered = s.record.roles.map((r) => s.roles.get(r.name)).filter((r): r is LiveRole => Boolean(r));
    await Promise.all(ordered.map((r) => r.refreshTitles()));
    const roles = ordered.map((r) => ({ name: r.name, viewport: r.viewport, browserId: r.lease.browserId, pages: r.pageInfos() }));
    return { ...this.describeRecord(s.record), lastUsedAt: new Date(s.lastUsed).toISOString(), roles };
  }

  private describeRecord(rec: SessionRecord): Session {
    return {
      id: rec.id,
      tenant: rec.tenant,
      status: rec.status,
      node: rec.node,
      createdAt: rec.createdAt,
      lastUsedAt: rec.lastUsedAt,
      expiresAt: rec.expiresAt,
      idleTimeoutSeconds: rec.idleTimeoutSeconds,
      ...(rec.metadata ? { metadata: rec.metadata } : {}),
      roles: rec.roles.map((r) => ({ name: r.name, viewport: r.viewport, pages: [] })),
    };
  }

  /** End a session: close its contexts, record why, tell listeners. Idempotent. */
  async end(id: string, status: Exclude<SessionStatus, 'active'>, reason: string): Promise<void> {
    const s = this.live.get(id);
    if (!s || s.ending) return;
    s.ending = true;
    s.ended = { status, reason };
    this.live.delete(id);
    this.ending.set(id, s);
    try {
      // Contexts close in the background past endWaitMs (a stuck page can slow a close;
      // the pool bounds it and forces it): the session ends on time either way.
      const releases = Promise.all([...s.roles.values()].map((r) => this.releaseRole(r)));
      await settledWithin(releases, this.opts.endWaitMs ?? 2000);
      // Quota holds go with the contexts (a lost write lapses with the node's heartbeat).
      await this.opts.gate?.releaseSession(s.record.tenant, id, s.record.roles.map((r) => r.name)).catch((err) => {
        this.log.warn({ sessionId: id, err: String(err) }, 'could not release quota holds in Redis');
      });
      try {
        await this.store.end(s.record, status, reason);
      } catch (err) {
        this.log.warn({ sessionId: id, err: String(err) }, 'could not record session end in Redis');
      }
    } finally {
      this.ending.delete(id);
    }
    this.log.info({ sessionId: id, status, reason }, 'session ended');
    this.emit('session-ended', { id, status, reason });
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const s of [...this.live.values()]) {
      if (s.holds > 0 || s.busy > 0) s.lastUsed = now;
      const idleLeft = s.lastUsed + s.record.idleTimeoutSeconds * 1000 - now;
      const ttlLeft = Date.parse(s.record.expiresAt) - now;
      // Not awaited one by one: one slow teardown must not hold the others (or the next sweep).
      if (ttlLeft <= 0) void this.end(s.record.id, 'expired', 'ttl').catch(() => {});
      else if (idleLeft <= 0) void this.end(s.record.id, 'expired', 'idle_timeout').catch(() => {});
      else if (Math.min(idleLeft, ttlLeft) <= 30_000) {
        const reason = ttlLeft < idleLeft ? 'ttl' : 'idle';
        this.emit('session-expiring', { id: s.record.id, inSeconds: Math.ceil(Math.min(idleLeft, ttlLeft) / 1000), reason });
      }
    }
  }

  /**
   * Waits for the quota decisions of creations holding pool slots (a refused one gives its
   * slots back); true when there were any to wait for.
   */
  async quotaDecisionsSettled(): Promise<boolean> {
    if (!this.quotaDecisions.size) return false;
    await Promise.allSettled([...this.quotaDecisions]);
    return true;
  }

  /** Graceful shutdown: every session ends as closed, every context is released. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.sweeper) clearInterval(this.sweeper);
    await Promise.all([...this.live.keys()].map((id) => this.end(id, 'closed', 'server_shutdown')));
  }
}

// Chromium refuses some option values only when the context or its first page is made
// ("Invalid timezone ID", a cookie with neither url nor domain, a header name with a
// space). That is the caller's mistake: a 400 naming the option, not a 500.
const OPTION_ERRORS: [RegExp, keyof RoleSpec][] = [
  [/timezone/i, 'timezoneId'],
  [/storage state|cookie/i, 'storageState'],
  [/header/i, 'extraHTTPHeaders'],
  [/user.?agent/i, 'userAgent'],
  [/locale/i, 'locale'],
  [/viewport/i, 'viewport'],
];

function contextOptionError(err: unknown, spec: RoleSpec, fieldPrefix: string): unknown {
  if (err instanceof AppError) return err;
  const message = err instanceof Error ? err.message : String(err);
  // Only an option the caller actually set can be to blame (a dead browser is not).
  const hit = OPTION_ERRORS.find(([re, field]) => spec[field] !== undefined && re.test(message));
  if (!hit) return err;
  const lines = message.split('\n').map((l) => l.trim()).filter(Boolean);
  const reason = lines.slice(0, 2).join(' ').replace(/^[\w.]+: /, '').slice(0, 300);
  return new AppError('invalid_request', `Role "${spec.name}": ${hit[1]} was refused by the browser: ${reason}`, {
    field: `${fieldPrefix}${hit[1]}`,
    role: spec.name,
  });
}
