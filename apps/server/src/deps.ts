import type { Redis } from 'ioredis';
import type { BrowserPool, SessionManager } from '@ariadne/pool';
import type { Config } from './config.js';

// What the routes need from the running service. Routes stay thin: they validate,
// find the session/role/tab, and call into the packages.

export interface ServerDeps {
  config: Config;
  sessions: SessionManager;
  pool: BrowserPool;
  redis: Redis;
}

