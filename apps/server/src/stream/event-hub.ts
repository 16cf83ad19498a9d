import { EventEmitter } from 'node:events';
import type { SessionManager } from '@ariadne/pool';
import type { PageState } from '@ariadne/page';

// Every live session's events, numbered and kept in a bounded log, so WebSocket
// clients get them live and a reconnecting client can ask for what it missed
// (?since=<seq>). The hub listens to the session manager and to every tab.

export const EVENT_TYPES = [
  'navigation', 'load', 'console', 'pageerror', 'dialog', 'tab_opened', 'tab_closed', 'download',
  'request_failed', 'page_crashed', 'session_expiring', 'session_closed', 'egress_denied',
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

class SessionLog {
  seq = 0;
  readonly events: StreamEvent[] = [];
  warnedAt = new Set<number>();
  push(e: Omit<StreamEvent, 'seq' | 'time'>): StreamEvent {
    const full = { seq: ++this.seq, time: new Date().toISOString(), ...e } as StreamEvent;
    this.events.push(full);
    if (this.events.length > EVENT_BUFFER) this.events.shift();
    return full;
  }
}

export interface HubEvents {
  event: [string, StreamEvent];
  ended: [string, { status: string; reason: string }];
}

export class EventHub extends EventEmitter<HubEvents> {
  private readonly logs = new Map<string, SessionLog>();

  constructor(sessions: SessionManager) {
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
      this.publish(id, { event: 'session_closed', data: { status, reason } });
      this.emit('ended', id, { status, reason });
      // Keep the log a little while so a client reconnecting right now still sees the end.
      setTimeout(() => this.logs.delete(id), 60_000).unref();
    });
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
    const pub = (event: EventType, data: Record<string, unknown>) => this.publish(sessionId, { event, role, page, data });
    this.publish(sessionId, { event: 'tab_opened', role, page, data: { url: state.page.url(), ...(state.openerId ? { openerId: state.openerId } : {}) } });
    state.on('navigated', ({ url }) => pub('navigation', { url }));
    state.on('load', ({ url }) => pub('load', { url }));
    state.on('console', (e) => pub(e.level === 'pageerror' ? 'pageerror' : 'console', { level: e.level, text: e.text.slice(0, 2000), ...(e.location ? { location: e.location } : {}) }));
    state.on('dialog', (d) => pub('dialog', d));
    state.on('download', (d) => pub('download', d));
    state.on('requestfailed', (r) => pub('request_failed', r));
    state.on('crash', () => pub('page_crashed', {}));
    state.on('close', () => pub('tab_closed', {}));
  }
}
