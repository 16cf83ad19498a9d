import { expect } from 'vitest';

// Image checks shared by the screenshot tests: a valid header, and the pixel size.

export function pngSize(buf: Buffer): { width: number; height: number } {
  expect(buf.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(buf.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** A JPEG's pixel size, from its start-of-frame segment. */
export function jpegSize(buf: Buffer): { width: number; height: number } {
  expect(buf.subarray(0, 2).toString('hex')).toBe('ffd8');
  let at = 2;
  while (at + 9 < buf.length) {
    if (buf[at] !== 0xff) throw new Error(`not a JPEG segment at ${at}`);
    const marker = buf[at + 1];
    // SOF0..SOF15, except DHT (c4), JPG (c8) and DAC (cc).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { width: buf.readUInt16BE(at + 7), height: buf.readUInt16BE(at + 5) };
    }
    at += 2 + buf.readUInt16BE(at + 2);
  }
  throw new Error('no frame header in the JPEG');
}

/** Sizes equal to within a pixel (device-pixel rounding). */
export function expectAbout(got: { width: number; height: number }, want: { width: number; height: number }): void {
  expect(Math.abs(got.width - want.width), `width ${got.width}`).toBeLessThanOrEqual(1);
  expect(Math.abs(got.height - want.height), `height ${got.height}`).toBeLessThanOrEqual(1);
}
