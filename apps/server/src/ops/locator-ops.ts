import { Type } from 'typebox';
import { synthesizeLocators } from '@ariadne/page';
import type { PageOp } from './registry.js';

// Verified locators for a ref: Playwright code, best first, each proven on the live page.

const Candidate = Type.Object({
  code: Type.String({ description: 'Playwright code, e.g. page.getByTestId(\'product-card\').filter({ hasText: \'iPhone 15 Pro\' }).getByRole(\'button\', { name: \'Add to Cart\' })' }),
  strategy: Type.Union(['role', 'container', 'own', 'structural', 'nth'].map((s) => Type.Literal(s))),
  score: Type.Integer({ minimum: 0, maximum: 100, description: 'Higher survives more change; every weakness lowers it.' }),
  fragile: Type.Boolean({ description: 'Something in it breaks easily: position (nth, :nth-of-type), DOM structure, a generated id, text that changes with data, or a substring anchor a near-duplicate also matches.' }),
  weaknesses: Type.Array(
    Type.Object({
      kind: Type.Union(['positional', 'generated-id', 'data-text', 'css-structure', 'css-class', 'near-duplicate', 'whole-text', 'long-chain'].map((s) => Type.Literal(s))),
      detail: Type.String(),
    }),
  ),
  why: Type.Array(Type.String(), { description: 'The facts the candidate was built from.' }),
  nearDuplicate: Type.Union(['distinct', 'also-matches', 'no-text-anchor'].map((s) => Type.Literal(s)), {
    description: 'Checked against a copy of its container whose anchor text is extended ("Desk Lamp" -> "Desk Lamp Plus"): distinct = the copy would not match.',
  }),
  verified: Type.Object({ matches: Type.Integer(), sameElement: Type.Boolean() }),
});

export const locatorOps: PageOp[] = [
  {
    name: 'locators',
    method: 'GET',
    path: '/locators',
    tag: 'explore',
    summary: 'Verified Playwright locators for a ref, best first, with Playwright\'s normalize() as a baseline',
    description:
      'Ranked by score: role + exact name unique on the page; a stable container (test id, id, landmark, semantic or custom-element tag, class, structure) picked by an exact heading or text and role + exact name inside; the element\'s own test id / label / placeholder; structural CSS; nth() last. Generated ids (React/Radix/Headless UI/Vue/Angular/Ember/MUI, CSS-in-JS classes, UUIDs, counters, per-session hashes) are never used. Each candidate lists its weaknesses and was checked against a near-duplicate; every returned locator resolved on the live page to exactly one element, the ref\'s element.',
    query: Type.Object({
      ref: Type.String({ maxLength: 32 }),
      page: Type.Optional(Type.String({ maxLength: 64 })),
      max: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
      baseline: Type.Optional(Type.Boolean({ default: true, description: 'Include Playwright\'s normalize() (it can take a second on big pages).' })),
    }),
    response: Type.Object({
      ref: Type.String(),
      url: Type.String(),
      target: Type.Object({ tag: Type.String(), role: Type.Optional(Type.String()), name: Type.Optional(Type.String()) }),
      frameSelector: Type.Optional(Type.String()),
      locators: Type.Array(Candidate),
      baseline: Type.Object({
        source: Type.String(),
        code: Type.Optional(Type.String()),
        matches: Type.Optional(Type.Integer()),
        sameElement: Type.Optional(Type.Boolean()),
        error: Type.Optional(Type.String()),
        ms: Type.Optional(Type.Integer({ description: 'Time normalize() itself took.' })),
      }),
      rejected: Type.Array(Type.Object({ code: Type.String(), reason: Type.String() }), { description: 'Candidates that failed verification (first 10).' }),
      considered: Type.Integer(),
      verification: Type.String(),
      durationMs: Type.Integer({ description: 'Our synthesis alone, the baseline excluded.' }),
    }),
    errors: [400, 404, 409, 410, 504],
    run: ({ state }, { query: q }) => synthesizeLocators(state, { ref: q.ref as string, max: q.max as number | undefined, baseline: q.baseline as boolean | undefined }),
  },
];
