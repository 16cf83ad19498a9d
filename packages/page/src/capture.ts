import type { CDPSession, Page } from 'playwright-core';

// A cheap viewport JPEG for step records: one CDP Page.captureScreenshot on a session
// kept per page, instead of page.screenshot() (which also waits for fonts and hides the
// caret with a style injected into every frame and removed after: several round trips).
// The capture is requested when called; callers may await it later.

const sessions = new WeakMap<Page, Promise<CDPSession>>();

function sessionOf(page: Page): Promise<CDPSession> {
  let s = sessions.get(page);
  if (!s) {
    s = page.context().newCDPSession(page);
    sessions.set(page, s);
    s.catch(() => sessions.delete(page));
    page.once('close', () => {
      sessions.delete(page);
      s!.then((x) => x.detach()).catch(() => {});
    });
  }
  return s;
}

export async function captureJpeg(page: Page, opts: { quality?: number; timeoutMs?: number } = {}): Promise<Buffer> {
  if (page.isClosed()) throw new Error('the page is closed');
  const quality = opts.quality ?? 50;
  const timeoutMs = opts.timeoutMs ?? 5000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`screenshot took longer than ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const capture = (async () => {
      try {
        const session = await sessionOf(page);
        const { data } = await session.send('Page.captureScreenshot', { format: 'jpeg', quality, captureBeyondViewport: false, optimizeForSpeed: true });
        return Buffer.from(data, 'base64');
      } catch (err) {
        // A session that cannot capture (detached, or a page Chromium will not let a CDP
        // session attach to): Playwright's own screenshot, the slower way.
        if (page.isClosed()) throw err;
        sessions.delete(page);
        return page.screenshot({ type: 'jpeg', quality, timeout: timeoutMs });
      }
    })();
    capture.catch(() => {});
    return await Promise.race([capture, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
