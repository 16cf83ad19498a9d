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
