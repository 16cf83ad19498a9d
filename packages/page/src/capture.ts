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

/**
 * A JPEG of the viewport. maxWidth scales the picture down to that width (CSS pixels in,
 * image pixels out): Chromium then composites and encodes fewer pixels, and most of a
 * capture's CPU goes there (bench/README.md, "Step pictures").
 */
export async function captureJpeg(page: Page, opts: { quality?: number; timeoutMs?: number; maxWidth?: number } = {}): Promise<Buffer> {
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
        const viewport = page.viewportSize();
        const scale = viewport && opts.maxWidth && viewport.width > opts.maxWidth ? opts.maxWidth / viewport.width : 1;
        const clip = scale < 1 && viewport ? { clip: { x: 0, y: 0, width: viewport.width, height: viewport.height, scale } } : {};
        const { data } = await session.send('Page.captureScreenshot', { format: 'jpeg', quality, captureBeyondViewport: false, optimizeForSpeed: true, ...clip });
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

// A step that only looks at the page (an assertion) leaves it as the step before left it,
// most of the time: its picture would cost another capture (~29 ms of Chromium's CPU,
// beside the next step on the same cores) to show the same pixels. So each capture first
// marks the page, and such a step asks whether anything that could change the pixels happened since:
// then the earlier picture is its picture. Anything the DOM does not say marks the page
// unsettled, and the step gets its own capture: animations or transitions running,
// images or fonts still loading, canvas, video or child frames (pixels the DOM does not
// describe), a scroll, a resize, a focus change, another URL or document.

const SINCE_KEY = 'ariadne.sinceCapture';

type Mark = { changed: boolean; unsettled: boolean; values: string; fieldValues: () => string; x: number; y: number; w: number; h: number; url: string; active: Element | null; observer: MutationObserver };

/** Mark the page as about to be captured (await it before captureJpeg). */
export async function markCapture(page: Page): Promise<void> {
  await page.evaluate((key) => {
    // What fields show is a property, not the DOM: typing changes no attribute.
    const fieldValues = () => [...document.querySelectorAll('input, textarea, select')].map((e) => {
      const f = e as HTMLInputElement;
      return f.type === 'checkbox' || f.type === 'radio' ? String(f.checked) : f.value;
    }).join('\u0000');
    const w = window as unknown as Record<symbol, Mark | undefined>;
    const sym = Symbol.for(key);
    w[sym]?.observer.disconnect();
    const running = document.getAnimations().some((a) => a.playState === 'running');
    const loading = [...document.images].some((i) => !i.complete) || document.fonts.status === 'loading';
    const mark: Mark = {
      changed: false,
      values: fieldValues(),
      fieldValues,
      unsettled: running || loading || Boolean(document.querySelector('canvas, video, iframe, frame, embed, object')),
      x: window.scrollX, y: window.scrollY, w: window.innerWidth, h: window.innerHeight,
      url: location.href,
      active: document.activeElement,
      // The first change is all it needs to know: it stops observing then.
      observer: new MutationObserver(() => {
        mark.changed = true;
        mark.observer.disconnect();
      }),
    };
    mark.observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    Object.defineProperty(w, sym, { value: mark, configurable: true });
  }, SINCE_KEY);
}

/** Would a capture now show what the last marked capture showed? (false when unsure) */
export async function unchangedSinceCapture(page: Page): Promise<boolean> {
  return page.evaluate((key) => {
    const mark = (window as unknown as Record<symbol, Mark | undefined>)[Symbol.for(key)];
    if (!mark || mark.changed || mark.unsettled || mark.observer.takeRecords().length) return false;
    if (window.scrollX !== mark.x || window.scrollY !== mark.y || window.innerWidth !== mark.w || window.innerHeight !== mark.h) return false;
    if (location.href !== mark.url || document.activeElement !== mark.active) return false;
    if (mark.fieldValues() !== mark.values) return false;
    return !document.getAnimations().some((a) => a.playState === 'running');
  }, SINCE_KEY).catch(() => false);
}
