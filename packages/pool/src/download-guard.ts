import { statSync } from 'node:fs';
import type { Download } from 'playwright-core';

// Caps what downloads a session may write. Chromium writes a download into the browser's
// artifacts directory while it runs; the guard watches the file grow and cancels (and
// deletes) the download that would take the session over its byte cap. Finished
// downloads count against the cap until the session ends (Playwright deletes them when
// the context closes).

export interface DownloadLimits {
  /** Downloads allowed at all (contexts are also made with acceptDownloads = this). */
  enabled: boolean;
  /** Bytes one session may write across all its roles and tabs. */
  maxBytes: number;
  pollMs?: number;
}

export interface DownloadAccount {
  /** Bytes of finished downloads of the session. */
  downloadBytes: number;
}

export type DownloadVerdict =
  | { outcome: 'finished'; bytes: number }
  | { outcome: 'failed'; failure: string }
  | { outcome: 'refused'; limit: 'downloads_disabled' }
  | { outcome: 'cancelled'; limit: 'download_bytes'; bytesWritten: number; max: number };

/** Where Chromium is writing this download (Playwright's artifact path). */
function artifactPath(download: Download): string | null {
  const a = (download as unknown as { _artifact?: { _initializer?: { absolutePath?: string } } })._artifact;
  return a?._initializer?.absolutePath ?? null;
}

function sizeOf(file: string | null): number {
  if (!file) return 0;
  for (const f of [file, `${file}.crdownload`]) {
    try {
      return statSync(f).size;
    } catch {
      /* not there (yet) */
    }
  }
  return 0;
}

/** In-flight downloads per account, so two parallel downloads cannot both fit "alone". */
const inFlight = new WeakMap<DownloadAccount, Map<Download, number>>();

export async function guardDownload(download: Download, account: DownloadAccount, limits: DownloadLimits): Promise<DownloadVerdict> {
  if (!limits.enabled) {
    await download.cancel().catch(() => {});
    await download.delete().catch(() => {});
    return { outcome: 'refused', limit: 'downloads_disabled' };
  }
  const file = artifactPath(download);
  let flights = inFlight.get(account);
  if (!flights) inFlight.set(account, (flights = new Map()));
  flights.set(download, 0);
  const others = () => [...flights!.entries()].reduce((n, [d, b]) => (d === download ? n : n + b), 0);
  let over: number | null = null;
  const done = download.path().then(() => null, () => null);
  const timer = setInterval(() => {
    const bytes = sizeOf(file);
    flights!.set(download, bytes);
    if (over === null && account.downloadBytes + others() + bytes > limits.maxBytes) over = bytes;
  }, limits.pollMs ?? 25);
  timer.unref();
  try {
    // Finished, failed, or over the cap: whichever comes first.
    while (over === null) {
      const settled = await Promise.race([done.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), limits.pollMs ?? 25))]);
      if (settled) break;
    }
    if (over === null) {
      const failure = await download.failure().catch((e) => String(e));
      if (failure) return { outcome: 'failed', failure };
      const bytes = sizeOf(file);
      if (account.downloadBytes + others() + bytes > limits.maxBytes) over = bytes;
      else {
        account.downloadBytes += bytes;
        return { outcome: 'finished', bytes };
      }
    }
    await download.cancel().catch(() => {});
    await download.delete().catch(() => {});
    return { outcome: 'cancelled', limit: 'download_bytes', bytesWritten: over, max: limits.maxBytes };
  } finally {
    clearInterval(timer);
    flights.delete(download);
  }
}
