import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scrubTraceFile, scrubTraceZip } from '@ariadne/flows';

// The trace rewriter on zips made by another tool (Python's zipfile: stored and deflated
// entries), read back with unzip: every form of a secret replaced, images left alone,
// a file it cannot read removed rather than kept.

const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-trace-scrub-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'hunter2 "quoted" & more';

function makeZip(file: string, entries: Record<string, string>): void {
  const script = [
    'import sys, json, zipfile',
    'entries = json.loads(sys.argv[2])',
    'with zipfile.ZipFile(sys.argv[1], "w") as z:',
    '    for i, (name, text) in enumerate(entries.items()):',
    '        z.writestr(name, text, compress_type=zipfile.ZIP_STORED if i % 2 else zipfile.ZIP_DEFLATED)',
  ].join('\n');
  execFileSync('python3', ['-c', script, file, JSON.stringify(entries)]);
}

describe('scrubTraceZip', () => {
  it('replaces the raw, JSON-escaped and URL-encoded forms in every entry but images', () => {
    const file = path.join(dir, 'trace.zip');
    makeZip(file, {
      'trace.trace': `{"type":"before","method":"fill","params":{"value":${JSON.stringify(SECRET)}}}\n`,
      'trace.network': `{"request":{"url":"http://x/knock?word=${encodeURIComponent(SECRET)}"}}`,
      'resources/body.dat': `word=${encodeURIComponent(SECRET).replace(/%20/g, '+')}`,
      'resources/frame.jpeg': `raw ${SECRET}`,
    });
    const out = scrubTraceZip(readFileSync(file), { WORD: SECRET });
    writeFileSync(file, out);
    const all = execFileSync('unzip', ['-p', file, 'trace.trace', 'trace.network', 'resources/body.dat']).toString();
    expect(all).not.toContain('hunter2');
    expect(all.match(/\{\{WORD\}\}/g)).toHaveLength(3);
    expect(execFileSync('unzip', ['-p', file, 'resources/frame.jpeg']).toString()).toBe(`raw ${SECRET}`);
    expect(execFileSync('unzip', ['-t', file]).toString()).toContain('No errors');
  });

  it('leaves a zip without the secret as it was, and removes a file it cannot read', async () => {
    const file = path.join(dir, 'clean.zip');
    makeZip(file, { 'trace.trace': '{"type":"before"}' });
    const before = readFileSync(file);
    expect(scrubTraceZip(before, { WORD: SECRET })).toBe(before);
    const broken = path.join(dir, 'broken.zip');
    writeFileSync(broken, 'not a zip at all, but it mentions hunter2');
    expect(await scrubTraceFile(broken, { WORD: 'hunter2' })).toBe(false);
    expect(existsSync(broken)).toBe(false);
    // No secrets: nothing read, nothing removed.
    writeFileSync(broken, 'still not a zip');
    expect(await scrubTraceFile(broken, {})).toBe(true);
    expect(existsSync(broken)).toBe(true);
  });
});
