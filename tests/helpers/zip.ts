import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

// Enough of a zip reader for tests to look into Playwright trace zips: the central
// directory's entries, stored or deflated (no zip64, no encryption).

export interface ZipEntry {
  name: string;
  data: Buffer;
}

export function zipEntries(file: string): ZipEntry[] {
  const buf = readFileSync(file);
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const next = p + 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString();
    const local = buf.readUInt32LE(p + 42);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + size);
    out.push({ name, data: method === 8 ? inflateRawSync(raw) : raw });
    p = next;
  }
  return out;
}

/** The text of the entries whose names end with `suffix`, one after the other. */
export function zipText(file: string, suffix: string): string {
  return zipEntries(file).filter((e) => e.name.endsWith(suffix)).map((e) => e.data.toString()).join('');
}

/** The events of a Playwright trace zip (its `.trace` entries, one JSON object per line). */
export function traceEvents(file: string): { type: string; [key: string]: unknown }[] {
  return zipText(file, '.trace').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}
