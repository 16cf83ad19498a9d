import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

// Issue 10, item 6 under load: a burst of creations that arrive together, while Redis is slow
// to answer, must each hear the same answer a quiet machine gives — the tenant over its share
// gets 429 quota_exceeded, never 503 capacity_exhausted because the pool's slots were
// momentarily held by requests whose quota was still being decided (they give them back).
// Redis writes are paused (CLIENT PAUSE WRITE) while the burst arrives, so every request
// reaches the pool before any quota decision: what a loaded machine does by chance.

const KEY = 'tenancy-race-greedy-0123456789ab';
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    API_KEYS: `${KEY}:greedy:max_contexts=3`,
    POOL_BROWSERS: '1',
    POOL_MAX_CONTEXTS: '4',
    POOL_MAX_CONTEXTS_PER_BROWSER: '4',
    POOL_WARM_CONTEXTS: '0',
    QUEUE_TIMEOUT_SECONDS: '0',
  });
});
afterAll(async () => {
  await svc?.stop();
});

describe('a burst of creations while quota decisions are slow', () => {
  it('gives the tenant its share and answers the rest quota_exceeded, not capacity_exhausted', async () => {
    const api = svc.api.withToken(KEY);
    // Its share: 3 of the node's 4 contexts.
    expect((await api.get('/v1/quota')).body.limits.max_contexts).toBe(3);
    await svc.service.redis.call('CLIENT', 'PAUSE', '700', 'WRITE');
    const answers = await Promise.all(Array.from({ length: 6 }, () => api.post('/v1/sessions', {})));
    const codes = answers.map((r) => (r.status === 201 ? 'created' : `${r.status} ${r.body.error?.code}`)).sort();
    expect(codes).toEqual(['429 quota_exceeded', '429 quota_exceeded', '429 quota_exceeded', 'created', 'created', 'created']);
    for (const r of answers.filter((x) => x.status === 201)) expect((await api.delete(`/v1/sessions/${r.body.id}`)).status).toBe(204);
    expect((await api.get('/v1/pool')).body.leased).toBe(0);
  });
});
