import type { Redis } from 'ioredis';
import type { BrowserPool, SessionManager } from '@ariadne/pool';
import type { SessionStore, TenantQuotas } from '@ariadne/cluster';
import type { Config } from './config.js';
import type { ClusterNode } from './cluster.js';
import type { Metrics } from './metrics.js';

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
  /** Per-tenant quotas (absent when the app is built only to read its schemas). */
  quotas?: TenantQuotas;
}

