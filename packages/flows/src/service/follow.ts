import type { Redis } from 'ioredis';
import { RunStore, TERMINAL, type StoredEvent } from './run-store.js';

// Follow a run's events: first what happened before the client came (replay from
// `since`), then live, from the run's Redis stream — so it works from any node,
// whichever worker runs the run. Ends after run_finished, or when aborted.

export async function followRun(
  store: RunStore,
  conn: Redis,
  id: string,
  since: number,
  onEvent: (e: StoredEvent) => void | Promise<void>,
  signal: AbortSignal,
): Promise<'finished' | 'aborted'> {
  let last = since;
  for (;;) {
    const batch = await store.events(id, last, 500);
    for (const e of batch) {
      await onEvent(e);
      last = e.seq;
      if (e.type === 'run_finished') return 'finished';
    }
    if (batch.length < 500) break;
  }
  while (!signal.aborted) {
    const events = await RunStore.waitEvents(conn, store.prefix, id, last, 1000).catch(async () => {
      await new Promise((r) => setTimeout(r, 500));
      return [] as StoredEvent[];
    });
    for (const e of events) {
      await onEvent(e);
      last = e.seq;
      if (e.type === 'run_finished') return 'finished';
    }
    if (!events.length) {
      // A run whose events expired or were never written still ends for its followers.
      const rec = await store.get(id).catch(() => null);
      if (!rec || (TERMINAL.includes(rec.status) && Date.now() - Date.parse(rec.updatedAt) > 3000)) return 'finished';
    }
  }
  return 'aborted';
}
