import { readFile, rm, writeFile } from 'node:fs/promises';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { SCRUB_MIN_LENGTH } from './tools.js';

// A Playwright trace records what a step typed (the fill's params), every DOM snapshot
// after it (the input's value) and request bodies (a login form's POST): a secret
// variable's value would sit in the trace zip in clear. After each chunk is written,
// the zip is rewritten with every occurrence replaced by {{NAME}}, in every entry but
// images (screencast frames are pixels). A zip this reader does not understand (ZIP64,
// encryption, an unknown method) is not kept at all: no trace rather than a leaking one.

const IMAGE = /\.(jpe?g|png|webp)$/i;

interface Entry {
  name: Buffer;
  flags: number;
  time: number;
  date: number;
  data: Buffer;
}

function readZip(zip: Buffer): Entry[] {
  // End of central directory: the last signature within the final 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || p === 0xffffffff) throw new Error('zip64 not supported');
  const out: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory');
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const time = zip.readUInt16LE(p + 12);
    const date = zip.readUInt16LE(p + 14);
    const compSize = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen);
    if (flags & 1) throw new Error('encrypted entry');
    if (compSize === 0xffffffff || local === 0xffffffff) throw new Error('zip64 not supported');
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error('bad local header');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compSize);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw);
    else throw new Error(`compression method ${method} not supported`);
    out.push({ name, flags, time, date, data });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/**
 * The fields a local file header (from byte 6) and its central directory entry (from
 * byte 8) share, in the same order: flags, method (8: deflate), time, date, CRC-32,
 * compressed and plain sizes, name length.
 */
function writeEntryFields(buf: Buffer, at: number, e: Entry, flags: number, crc: number, compressed: number): void {
  buf.writeUInt16LE(flags, at);
  buf.writeUInt16LE(8, at + 2);
  buf.writeUInt16LE(e.time, at + 4);
  buf.writeUInt16LE(e.date, at + 6);
  buf.writeUInt32LE(crc, at + 8);
  buf.writeUInt32LE(compressed, at + 12);
  buf.writeUInt32LE(e.data.length, at + 16);
  buf.writeUInt16LE(e.name.length, at + 20);
}

function writeZip(entries: Entry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const comp = deflateRawSync(e.data);
    const crc = crc32(e.data);
    // Bit 11 (UTF-8 names) kept; bit 3 (sizes after the data) dropped: sizes are known.
    const flags = e.flags & 0x0800;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    writeEntryFields(local, 6, e, flags, crc, comp.length);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    writeEntryFields(cd, 8, e, flags, crc, comp.length);
    cd.writeUInt32LE(offset, 42);
    parts.push(local, e.name, comp);
    central.push(cd, e.name);
    offset += 30 + e.name.length + comp.length;
  }
  const cdBuf = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdBuf.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cdBuf, end]);
}

/** The forms a value takes in a trace: as typed, JSON-escaped, and URL-encoded (form bodies). */
function forms(value: string): Buffer[] {
  const set = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value), encodeURIComponent(value).replace(/%20/g, '+')]);
  return [...set].map((v) => Buffer.from(v, 'utf8'));
}

function replaceAll(data: Buffer, needle: Buffer, by: Buffer): Buffer {
  let i = data.indexOf(needle);
  if (i < 0) return data;
  const out: Buffer[] = [];
  let from = 0;
  while (i >= 0) {
    out.push(data.subarray(from, i), by);
    from = i + needle.length;
    i = data.indexOf(needle, from);
  }
  out.push(data.subarray(from));
  return Buffer.concat(out);
}

/** The zip with every secret value replaced by {{NAME}} (unchanged buffer when none occurs). */
export function scrubTraceZip(zip: Buffer, secrets: Record<string, string>): Buffer {
  const needles = Object.entries(secrets)
    .filter(([, v]) => v.length >= SCRUB_MIN_LENGTH)
    .flatMap(([name, v]) => forms(v).map((f) => ({ f, by: Buffer.from(`{{${name}}}`) })))
    // Longer first, so a secret containing another is replaced whole.
    .sort((a, b) => b.f.length - a.f.length);
  if (!needles.length) return zip;
  const entries = readZip(zip);
  let changed = false;
  for (const e of entries) {
    if (IMAGE.test(e.name.toString('utf8'))) continue;
    for (const { f, by } of needles) {
      const next = replaceAll(e.data, f, by);
      if (next !== e.data) {
        e.data = next;
        changed = true;
      }
    }
  }
  return changed ? writeZip(entries) : zip;
}

/** Scrubs a trace file in place; a trace that cannot be scrubbed is deleted (false). */
export async function scrubTraceFile(file: string, secrets: Record<string, string> | undefined): Promise<boolean> {
  if (!secrets || !Object.keys(secrets).length) return true;
  try {
    const zip = await readFile(file);
    const clean = scrubTraceZip(zip, secrets);
    if (clean !== zip) await writeFile(file, clean);
    return true;
  } catch {
    await rm(file, { force: true }).catch(() => {});
    return false;
  }
}
