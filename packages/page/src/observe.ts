import { AppError } from '@ariadne/schema';
import type { PageState, NetworkEntry } from './page-state.js';

// Read-only views of a tab: console, network, storage, performance. Lists are bounded
// and say how much they left out; the compact text forms follow seed 002.

export interface ListOptions {
  limit: number;
  format?: 'json' | 'text';
}

export function consoleView(state: PageState, opts: ListOptions & { level?: string }) {
  const levels = opts.level ? new Set(opts.level.split(',').map((s) => s.trim()).filter(Boolean)) : null;
  const all = state.console.toArray().filter((e) => !levels || levels.has(e.level));
  const entries = all.slice(-opts.limit);
  const omitted = all.length - entries.length + state.console.dropped;
  if (opts.format === 'text') {
    const lines = entries.map((e) => `[${e.seq}] ${e.level}: ${e.text.split('\n')[0].slice(0, 300)}${e.location ? ` (${e.location})` : ''}`);
    return {
      text: `Console (${entries.length} of ${all.length}${state.console.dropped ? `, ${state.console.dropped} older dropped` : ''}):\n${lines.join('\n')}`,
      total: all.length,
      omitted,
    };
  }
  return {
    entries, total: all.length, omitted, dropped: state.console.dropped,
    ...(state.consolePauses ? { paused: { pauses: state.consolePauses, pausedMs: state.consolePausedMs, droppedInPage: state.consoleDroppedInPage } } : {}),
  };
}

function publicEntry(e: NetworkEntry) {
  const { request: _r, started: _s, ...rest } = e;
  return rest;
}

export function networkView(state: PageState, opts: ListOptions & { type?: string; failed?: boolean }) {
  const types = opts.type ? new Set(opts.type.split(',').map((s) => s.trim()).filter(Boolean)) : null;
  const all = state.network
    .toArray()
    .filter((e) => (!types || types.has(e.resourceType)) && (opts.failed === undefined || Boolean(e.failure || (e.status ?? 0) >= 400) === opts.failed));
  const recent = all.slice(-opts.limit).reverse();
  const omitted = all.length - recent.length;
  if (opts.format === 'text') {
    const lines = recent.map((e) => {
      const status = e.failure ? `FAILED ${e.failure}` : e.status !== undefined ? `${e.status} ${e.statusText ?? ''}`.trim() : 'pending';
      return `[${e.id}] ${e.method} ${shortUrl(e.url)} ${status} | ${e.resourceType}${e.durationMs !== undefined ? ` | ${e.durationMs}ms` : ''}`;
    });
    return {
      text: `Network Requests (${recent.length} of ${all.length}, recent first):\n${lines.join('\n')}${omitted ? `\nOmitted: ${omitted} older requests. Use network/{id} for details.` : ''}`,
      total: all.length,
      omitted,
    };
  }
  return { requests: recent.map(publicEntry), total: all.length, omitted, dropped: state.network.dropped };
}

function shortUrl(u: string): string {
  return u.length > 120 ? `${u.slice(0, 117)}...` : u;
}

function truncateBody(buf: Buffer | null, max: number): { body?: string; bodyBytes: number; truncated: boolean; encoding?: 'utf8' | 'base64' } {
  if (!buf) return { bodyBytes: 0, truncated: false };
  const slice = buf.subarray(0, max);
  const textual = !slice.includes(0);
  return {
    body: textual ? slice.toString('utf8') : slice.toString('base64'),
    encoding: textual ? 'utf8' : 'base64',
    bodyBytes: buf.length,
    truncated: buf.length > max,
  };
}

export async function networkDetail(state: PageState, requestId: string, maxBodyBytes: number) {
  const entry = state.network.toArray().find((e) => e.id === requestId);
  if (!entry) throw new AppError('request_not_found', `No request ${requestId} in this tab's log (it keeps the newest ${state.network.capacity}).`, { requestId });
  const req = entry.request;
  const res = await req.response().catch(() => null);
  const requestBody = req.postDataBuffer();
  let responseBody: Buffer | null = null;
  let responseBodyError: string | undefined;
  if (res) {
    try {
      responseBody = await res.body();
    } catch (err) {
      responseBodyError = (err as Error).message.split('\n')[0];
    }
  }
  return {
    ...publicEntry(entry),
    requestHeaders: await req.allHeaders().catch(() => req.headers()),
    request: truncateBody(requestBody, maxBodyBytes),
    ...(res
      ? { responseHeaders: await res.allHeaders().catch(() => res.headers()), response: { ...truncateBody(responseBody, maxBodyBytes), ...(responseBodyError ? { error: responseBodyError } : {}) } }
      : {}),
  };
}

export async function storageView(state: PageState, type: 'local' | 'session') {
  state.assertNoDialog();
  const items = await state.page.evaluate((t) => {
    const s = t === 'local' ? window.localStorage : window.sessionStorage;
    const out: { key: string; value: string }[] = [];
    for (let i = 0; i < s.length; i++) {
      const key = s.key(i)!;
      out.push({ key, value: s.getItem(key) ?? '' });
    }
    return out;
  }, type);
  return { type, origin: new URL(state.page.url()).origin, items: items.map((i) => ({ ...i, value: i.value.slice(0, 10_000) })) };
}

export async function performanceView(state: PageState) {
  state.assertNoDialog();
  return state.page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const paints = Object.fromEntries(performance.getEntriesByType('paint').map((p) => [p.name, Math.round(p.startTime)]));
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const mem = (performance as unknown as { memory?: { usedJSHeapSize: number; totalJSHeapSize: number } }).memory;
    return {
      url: location.href,
      navigation: nav
        ? {
            type: nav.type,
            durationMs: Math.round(nav.duration),
            ttfbMs: Math.round(nav.responseStart - nav.requestStart),
            domContentLoadedMs: Math.round(nav.domContentLoadedEventEnd),
            loadMs: Math.round(nav.loadEventEnd),
            transferSize: nav.transferSize,
          }
        : null,
      paint: paints,
      resources: { count: resources.length, transferSize: resources.reduce((a, r) => a + (r.transferSize || 0), 0) },
      jsHeap: mem ? { usedBytes: mem.usedJSHeapSize, totalBytes: mem.totalJSHeapSize } : null,
      domNodes: document.getElementsByTagName('*').length,
    };
  });
}
