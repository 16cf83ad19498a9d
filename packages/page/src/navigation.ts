import type { BrowserContext, Page } from 'playwright-core';
import { AppError } from '@ariadne/schema';

// Navigation is limited to http(s) and about:blank by default: file:, chrome:,
// javascript: and data: URLs would let an agent read the host or run script outside
// the page's own origin rules.

export const DEFAULT_ALLOWED_SCHEMES = ['http:', 'https:'];

// A role's baseURL, by its context: Playwright does not expose context options, and a
// fresh tab (about:blank) has no page URL for a relative URL to resolve against.
const contextBaseURLs = new WeakMap<BrowserContext, string>();

export function setContextBaseURL(context: BrowserContext, baseURL: string): void {
  contextBaseURLs.set(context, baseURL);
}

export function checkNavigationUrl(raw: string, allowedSchemes: string[], page?: Page, baseURL?: string): string {
  const trimmed = raw.trim();
  if (trimmed === 'about:blank') return trimmed;
  let url: URL;
  try {
    // Relative URLs resolve against the current page, like a link would; on a tab that is
    // not on a web page yet, against the role's baseURL.
    const base = page && /^https?:/.test(page.url()) ? page.url() : (baseURL ?? (page ? contextBaseURLs.get(page.context()) : undefined));
    url = new URL(trimmed, base);
  } catch {
    throw new AppError('invalid_request', `"${raw}" is not a valid URL.`, { field: 'url' });
  }
  if (!allowedSchemes.includes(url.protocol)) {
    throw new AppError('navigation_blocked', `Navigation to ${url.protocol} URLs is not allowed.`, {
      url: trimmed.slice(0, 200),
      allowedSchemes: [...allowedSchemes, 'about:blank'],
    });
  }
  return url.toString();
}

// Egress: the pool registers, per context, a check of a URL against the egress policy
// (on its resolved address) and a way to tell whether a failed or answered navigation
// was refused by the context's egress proxy. Navigations check first (a refused URL
// never touches the page) and explain failures after (a redirect to a denied host).
export interface NavigationGuard {
  /** Throws AppError egress_denied when the URL may not be reached. */
  check(url: string): Promise<void>;
  /** The egress denial behind a navigation that started at `since`, if any. */
  explain(since: number, url?: string): AppError | null;
}

const guards = new WeakMap<BrowserContext, NavigationGuard>();

export function setNavigationGuard(context: BrowserContext, guard: NavigationGuard): void {
  guards.set(context, guard);
}

export function navigationGuard(page: Page): NavigationGuard | undefined {
  return guards.get(page.context());
}

export async function guardNavigation(page: Page, url: string): Promise<void> {
  if (!/^https?:/i.test(url)) return;
  await guards.get(page.context())?.check(url);
}

/**
 * Run a navigation so that a refused one leaves the page clean: when it fails, wait
 * (bounded) for Chromium to commit its error page, which otherwise lands during the
 * next navigation and interrupts it ("interrupted by another navigation to
 * chrome-error://"), and the one after, in a cascade. A failure the egress proxy
 * caused becomes egress_denied; so does a navigation answered by the proxy's refusal.
 */
export async function runNavigation<T extends { headers(): Record<string, string>; url(): string } | null>(page: Page, go: () => Promise<T>): Promise<T> {
  const since = Date.now();
  let res: T;
  try {
    res = await go();
  } catch (err) {
    // Chromium shows an error page for network errors (not for aborted navigations:
    // downloads, 204s, a navigation replaced by another).
    const msg = err instanceof Error ? err.message : String(err);
    if (/net::ERR_/.test(msg) && !/net::ERR_ABORTED/.test(msg)) await settleFailedNavigation(page);
    throw guards.get(page.context())?.explain(since) ?? err;
  }
  const egress = res ? res.headers()['x-ariadne-egress'] : undefined;
  const guard = guards.get(page.context());
  if (egress && guard) {
    if (egress.startsWith('denied')) {
      const denied = guard.explain(since, res!.url());
      if (denied) throw denied;
    }
    // The proxy could not connect (plain http): the same failure a direct connection would give.
    const failed = /^error; host=([^;]+); cause=(.+)$/.exec(egress);
    if (failed) throw new AppError('navigation_failed', `Could not connect to ${failed[1]} (${failed[2]}) loading ${res!.url().slice(0, 300)}.`, { url: res!.url().slice(0, 300), cause: failed[2] });
  }
  return res;
}

export async function settleFailedNavigation(page: Page, maxWaitMs = 2000): Promise<void> {
  if (page.isClosed()) return;
  const frame = page.mainFrame();
  if (frame.url().startsWith('chrome-error://')) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      page.off('framenavigated', onNav);
      page.off('close', done);
      resolve();
    };
    const onNav = (f: typeof frame) => { if (f === frame && f.url().startsWith('chrome-error://')) done(); };
    const timer = setTimeout(done, maxWaitMs);
    page.on('framenavigated', onNav);
    page.on('close', done);
  });
}
