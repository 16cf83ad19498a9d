import type { Redis } from 'ioredis';
import type { BrowserPool, SessionManager } from '@ariadne/pool';
import type { InboxStore } from '@ariadne/inbox';
import type { SessionStore, TenantQuotas } from '@ariadne/cluster';
import type { Config } from './config.js';
import type { ClusterNode } from './cluster.js';
import type { Metrics } from './metrics.js';
import type { EgressPolicy, FetchLike } from '@ariadne/egress';

// What the routes need from the running service. Routes stay thin: they validate,
// find the session/role/tab, and call into the packages.

export interface ServerDeps {
  config: Config;
  sessions: SessionManager;
  pool: BrowserPool;
  redis: Redis;
  /** Absent when the app is built only to read its schemas (openapi generation). */
  store?: SessionStore;
  cluster?: ClusterNode | null;
  metrics?: Metrics;
  /** Disposable inboxes (their SMTP listener runs when SMTP_PORT is set). */
  inboxes?: InboxStore;
  /** The egress policy, and a fetch that obeys it (callbacks, tenant-chosen model URLs). */
  egress?: { policy: EgressPolicy; fetch: FetchLike };
  /** Per-tenant quotas (absent when the app is built only to read its schemas). */
  quotas?: TenantQuotas;
}

