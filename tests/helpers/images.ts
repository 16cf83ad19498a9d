import { expect } from 'vitest';

// PNG checks shared by the screenshot tests: a valid PNG header, and its pixel size.

export function pngSize(buf: Buffer): { width: number; height: number } {
  expect(buf.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(buf.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** Sizes equal to within a pixel (device-pixel rounding). */
export function expectAbout(got: { width: number; height: number }, want: { width: number; height: number }): void {
  expect(Math.abs(got.width - want.width), `width ${got.width}`).toBeLessThanOrEqual(1);
  expect(Math.abs(got.height - want.height), `height ${got.height}`).toBeLessThanOrEqual(1);
}
