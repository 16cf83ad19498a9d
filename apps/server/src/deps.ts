import type { Redis } from 'ioredis';
import type { BrowserPool, SessionManager, LiveRole } from '@ariadne/pool';
import { toAppError, type PageState } from '@ariadne/page';
import type { Config } from './config.js';

// What the routes need from the running service. Routes stay thin: they validate,
// find the session/role/tab, and call into the packages.

export interface ServerDeps {
  config: Config;
  sessions: SessionManager;
  pool: BrowserPool;
  redis: Redis;
}

export interface PageTarget {
  tenant: string;
  id: string;
  role: string;
  page?: string;
}

/** Run fn on a tab, in order with other commands on that tab; errors become API errors. */
export async function onPage<T>(deps: ServerDeps, t: PageTarget, fn: (state: PageState, role: LiveRole) => Promise<T>): Promise<T> {
  const session = await deps.sessions.use(t.tenant, t.id);
  const role = session.role(t.role);
  return role.run(t.page, async (state) => {
    try {
      return await fn(state, role);
    } catch (err) {
      throw toAppError(err, { state });
    }
  });
}
