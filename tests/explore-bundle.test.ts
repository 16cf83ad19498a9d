import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs build script without types
import { OUT, bundleBridge, renderModule } from '../packages/page/scripts/build-bridge.mjs';

// The in-page bridge is committed as a generated module (so `tsc -b` alone builds a
// working service). This fails when someone edits src/bridge/injected/ and forgets
// to regenerate it.

describe('bridge bundle', () => {
  it('bundle.generated.ts matches the injected sources', async () => {
    const fresh = renderModule(await bundleBridge());
    const committed = readFileSync(OUT, 'utf8');
    expect(committed === fresh, 'src/bridge/bundle.generated.ts is stale: run `node packages/page/scripts/build-bridge.mjs`').toBe(true);
  });
});
