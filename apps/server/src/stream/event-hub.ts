import { EventEmitter } from 'node:events';
import type { SessionManager } from '@ariadne/pool';
import type { PageState } from '@ariadne/page';

// Every live session's events, numbered and kept in a bounded log, so WebSocket
// clients get them live and a reconnecting client can ask for what it missed
// (?since=<seq>). The hub listens to the session manager and to every tab.

export const EVENT_TYPES = [
  'navigation', 'load', 'console', 'pageerror', 'dialog', 'tab_opened', 'tab_closed', 'download',
  'request_failed', 'page_crashed', 'session_expiring', 'session_closed', 'egress_denied',
  // Limits (docs/security.md, "Limits"): events left out under a flood, and a tab or download refused.
  'dropped', 'limit_reached',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface StreamEvent {
  seq: number;
  event: EventType;
  time: string;
  role?: string;
  page?: string;
  data: Record<string, unknown>;
}

export const EVENT_BUFFER = 1000;
/** The replay log of one session is also bounded in bytes (JSON size of the events). */
export const EVENT_BUFFER_BYTES = 1024 * 1024;

/** Chatty events a page can produce without end: these are rate-limited per session. */
const FLOODABLE = new Set<EventType>(['console', 'pageerror', 'request_failed']);

class SessionLog {
  seq = 0;
  readonly events: StreamEvent[] = [];
  private readonly sizes: number[] = [];
  bytes = 0;
  warnedAt = new Set<number>();
  /** Rate window for floodable events, and what was left out in it. */
  windowStart = 0;
  windowCount = 0;
  droppedInWindow = 0;
  droppedByType: Record<string, number> = {};
  droppedTotal = 0;
  flushTimer: NodeJS.Timeout | null = null;
  push(e: Omit<StreamEvent, 'seq' | 'time'>): StreamEvent {
    const full = { seq: ++this.seq, time: new Date().toISOString(), ...e } as StreamEvent;
    const size = 96 + JSON.stringify(full.data).length;
    this.events.push(full);
    this.sizes.push(size);
    this.bytes += size;
    while (this.events.length > EVENT_BUFFER || (this.bytes > EVENT_BUFFER_BYTES && this.events.length > 1)) {
      this.events.shift();
      this.bytes -= this.sizes.shift()!;
    }
    return full;
  }
}

export interface HubOptions {
  /** Floodable events (console, pageerror, request_failed) per session per second; the rest become a `dropped` event. */
  eventsPerSecond: number;
}

export interface HubEvents {
  event: [string, StreamEvent];
  ended: [string, { status: string; reason: string }];
}

export class EventHub extends EventEmitter<HubEvents> {
  private readonly logs = new Map<string, SessionLog>();

  constructor(sessions: SessionManager, private readonly opts: HubOptions = { eventsPerSecond: 1000 }) {
    super();
    this.setMaxListeners(0);
    sessions.on('page-created', ({ sessionId, role, state }) => this.watchPage(sessionId, role, state));
    sessions.on('session-expiring', ({ id, inSeconds, reason }) => {
      const log = this.log(id);
      // Warn once when entering the last 30 s, once more in the last 10 s.
      const mark = inSeconds <= 10 ? 10 : 30;
      if (log.warnedAt.has(mark)) return;
      log.warnedAt.add(mark);
      this.publish(id, { event: 'session_expiring', data: { inSeconds, reason } });
    });
    sessions.on('egress-denied', ({ sessionId, role, denial }) => {
      const { time: _t, ...data } = denial;
      this.publish(sessionId, { event: 'egress_denied', role, data });
    });
    sessions.on('session-ended', ({ id, status, reason }) => {
      const log = this.logs.get(id);
      if (log?.flushTimer) { clearTimeout(log.flushTimer); log.flushTimer = null; this.flushDropped(id); }
      this.publish(id, { event: 'session_closed', data: { status, reason } });
      this.emit('ended', id, { status, reason });
      // Keep the log a little while so a client reconnecting right now still sees the end.
      setTimeout(() => this.logs.delete(id), 60_000).unref();
    });
    sessions.on('limit-reached', ({ sessionId, role, page, data }) => {
      this.publish(sessionId, { event: 'limit_reached', role, ...(page ? { page } : {}), data });
    });
  }

  /**
   * Publish a floodable event unless its session is over its rate: then count it, and say
   * once a second how many were left out (a `dropped` event with counts per type).
   */
  private publishFloodable(sessionId: string, e: Omit<StreamEvent, 'seq' | 'time'>): void {
    const log = this.log(sessionId);
    const now = Date.now();
    if (now - log.windowStart >= 1000) {
      log.windowStart = now;
      log.windowCount = 0;
    }
    if (log.windowCount < this.opts.eventsPerSecond) {
      log.windowCount++;
      this.publish(sessionId, e);
      return;
    }
    log.droppedInWindow++;
    log.droppedTotal++;
    log.droppedByType[e.event] = (log.droppedByType[e.event] ?? 0) + 1;
    if (!log.flushTimer) {
      log.flushTimer = setTimeout(() => { log.flushTimer = null; this.flushDropped(sessionId); }, 1000);
      log.flushTimer.unref();
    }
  }

  private flushDropped(sessionId: string): void {
    const log = this.logs.get(sessionId);
    if (!log || !log.droppedInWindow) return;
    const data = { count: log.droppedInWindow, byType: log.droppedByType, totalDropped: log.droppedTotal, reason: 'rate', limitPerSecond: this.opts.eventsPerSecond };
    log.droppedInWindow = 0;
    log.droppedByType = {};
    this.publish(sessionId, { event: 'dropped', data });
  }

  private log(id: string): SessionLog {
    let log = this.logs.get(id);
    if (!log) this.logs.set(id, (log = new SessionLog()));
    return log;
  }

  publish(sessionId: string, e: Omit<StreamEvent, 'seq' | 'time'>): StreamEvent {
    const full = this.log(sessionId).push(e);
    this.emit('event', sessionId, full);
    return full;
  }

  /** Events after `since`, and whether some were already dropped from the buffer. */
  replay(sessionId: string, since: number): { events: StreamEvent[]; gap: { missedFrom: number; oldestAvailable: number } | null; lastSeq: number } {
    const log = this.log(sessionId);
    const events = log.events.filter((e) => e.seq > since);
    const oldest = log.events[0]?.seq ?? log.seq + 1;
    const gap = since + 1 < oldest && since < log.seq ? { missedFrom: since + 1, oldestAvailable: oldest } : null;
    return { events, gap, lastSeq: log.seq };
  }

  lastSeq(sessionId: string): number {
    return this.log(sessionId).seq;
  }

  private watchPage(sessionId: string, role: string, state: PageState): void {
    const page = state.id;
    const pub = (event: EventType, data: Record<string, unknown>) =>
      FLOODABLE.has(event) ? this.publishFloodable(sessionId, { event, role, page, data }) : void this.publish(sessionId, { event, role, page, data });
    this.publish(sessionId, { event: 'tab_opened', role, page, data: { url: state.page.url(), ...(state.openerId ? { openerId: state.openerId } : {}) } });
    state.on('navigated', ({ url }) => pub('navigation', { url }));
    state.on('load', ({ url }) => pub('load', { url }));
    state.on('console', (e) => pub(e.level === 'pageerror' ? 'pageerror' : 'console', { level: e.level, text: e.text.slice(0, 2000), ...(e.location ? { location: e.location } : {}) }));
    state.on('consolePaused', (d) => void this.publish(sessionId, { event: 'dropped', role, page, data: { reason: 'console_flood', ...d } }));
    state.on('dialog', (d) => pub('dialog', d));
    state.on('download', (d) => pub('download', d));
    state.on('requestfailed', (r) => pub('request_failed', r));
    state.on('crash', () => pub('page_crashed', {}));
    state.on('close', () => pub('tab_closed', {}));
  }
}
