import { Type } from 'typebox';
import { serializeDom } from '@ariadne/page';
import type { PageOp } from './registry.js';

// The abbreviated DOM across iframes and open shadow roots (seed 003).

export const domOps: PageOp[] = [
  {
    name: 'dom',
    method: 'GET',
    path: '/dom',
    tag: 'inspect',
    summary: 'Abbreviated DOM across nested iframes and open shadow roots, with [FRAME]/[SHADOW-ROOT]/[CUSTOM] blocks and a ↳ PATH line per interactive element',
    description:
      'Each ↳ PATH line gives locator (unique in its scope), shadowHost (host selectors, outermost first, space-separated; spaces only inside quoted values) and frameSelector (iframe selectors joined by " >> "): page.frameLocator(f1).frameLocator(f2).locator(host1).locator(host2).locator(locator) finds exactly that element. Script/style and zero-size elements are skipped; the output is capped (default 24,000 chars) with an explicit [TRUNCATED] marker.',
    query: Type.Object({
      page: Type.Optional(Type.String({ maxLength: 64 })),
      maxTokens: Type.Optional(Type.Integer({ minimum: 50, maximum: 250_000, default: 6000, description: 'Cap in tokens (chars / 4); default 6,000 = 24,000 chars.' })),
    }),
    response: Type.Object({
      url: Type.String(),
      title: Type.String(),
      dom: Type.String(),
      chars: Type.Integer(),
      tokens: Type.Integer(),
      truncated: Type.Boolean(),
      maxChars: Type.Integer(),
      stats: Type.Object({
        elements: Type.Integer(),
        interactive: Type.Integer(),
        shadowRoots: Type.Integer(),
        customElements: Type.Integer(),
        frames: Type.Integer(),
        skippedZeroSize: Type.Integer(),
      }),
    }),
    errors: [400, 404, 409, 410, 504],
    run: ({ state }, { query: q }) => serializeDom(state, { maxTokens: q.maxTokens as number | undefined }),
  },
];
