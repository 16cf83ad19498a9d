import type { Redis } from 'ioredis';
import { LeaseRegistry, type LeaseInfo } from './leases.js';
import { NodeRegistry } from './nodes.js';

// This node's part in the cluster: a heartbeat that announces the node (URL,
// capacity, load) and renews every lease it holds. When the process dies the
// heartbeat stops, and the maintenance job reaps what it held.

export interface LocalState {
  capacity: number;
  leased: number;
  sessions: number;
  leases: LeaseInfo[];
}

export interface MembershipOptions {
  redis: Redis;
  prefix: string;
  nodeId: string;
  url: string;
  heartbeatMs: number;
  /** Leases and node records live this long without a heartbeat. */
  ttlMs: number;
  local: () => LocalState;
  logger?: { warn(o: object, m?: string): void };
}

export class Membership {
  readonly leases: LeaseRegistry;
  readonly nodes: NodeRegistry;
  private timer: NodeJS.Timeout | null = null;
  private readonly startedAt = new Date().toISOString();
  private beating: Promise<void> | null = null;
  private failing = false;
  /** Leases released while a heartbeat was in flight: the beat may have re-added them. */
  private readonly releasedDuringBeat = new Set<string>();

  constructor(private readonly opts: MembershipOptions) {
    this.leases = new LeaseRegistry(opts.redis, opts.prefix, opts.ttlMs);
    this.nodes = new NodeRegistry(opts.redis, opts.prefix, opts.ttlMs);
  }

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => {
      // One beat at a time: a slow Redis must not pile them up.
      if (!this.beating) this.beating = this.beat().finally(() => { this.beating = null; });
    }, this.opts.heartbeatMs);
    this.timer.unref();
  }

  async beat(): Promise<void> {
    const local = this.opts.local();
    try {
      await this.nodes.heartbeat({
        id: this.opts.nodeId,
        url: this.opts.url,
        capacity: local.capacity,
        leased: local.leased,
        sessions: local.sessions,
        startedAt: this.startedAt,
      });
      // Renew only what is still held now, and take out again whatever was released
      // while this beat was in flight (its ZADD may have put it back).
      const held = new Set(this.opts.local().leases.map((l) => l.id));
      await this.leases.renew(local.leases.filter((l) => held.has(l.id)));
      for (const id of this.releasedDuringBeat) await this.leases.remove(id);
      this.releasedDuringBeat.clear();
      if (this.failing) this.opts.logger?.warn({}, 'heartbeat restored');
      this.failing = false;
    } catch (err) {
      // Say it once per outage, not once per beat.
      if (!this.failing) this.opts.logger?.warn({ err: String(err) }, 'heartbeat failed (Redis unreachable?)');
      this.failing = true;
    }
  }

  /** A context was leased here: record it at once (the heartbeat keeps it alive). */
  async acquired(lease: LeaseInfo): Promise<void> {
    await this.leases.add(lease);
  }

  /** A context was given back: its lease goes, and stays gone even if a beat is in flight. */
  async released(id: string): Promise<void> {
    if (this.beating) this.releasedDuringBeat.add(id);
    await this.leases.remove(id);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    await this.nodes.remove(this.opts.nodeId).catch(() => {});
  }
}
