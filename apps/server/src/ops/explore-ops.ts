import { Type } from 'typebox';
import { exploreAnchors, exploreContainer, explorePattern, type FactsFormat } from '@ariadne/page';
import type { PageOp } from './registry.js';

// Structural exploration around a ref (seed 000): containers → pattern → anchors.
// Facts only; every list bounded, with omitted counts and a token budget.

const Ref = Type.String({ maxLength: 32, description: 'A ref from the latest snapshot (e12, or f1e3 inside an iframe).' });
const Format = Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('text')], { description: 'json (default) for programs, text for models.' }));
const MaxTokens = (def: number) => Type.Optional(Type.Integer({ minimum: 50, maximum: 100_000, default: def, description: 'Response budget in tokens (≈ chars / 4).' }));
const Level = Type.Integer({ minimum: 1, maximum: 1000, description: 'How many ancestors up from the target (1 = its parent). Past body: 400 level_out_of_range.' });
const Page = Type.Optional(Type.String({ maxLength: 64 }));

const Attrs = Type.Record(Type.String(), Type.String(), { description: 'Stable attributes: data-testid, data-test, data-cy, id, role, aria-label, name, class.' });

const Envelope = {
  ref: Type.String(),
  url: Type.String(),
  format: Type.String(),
  tokens: Type.Integer({ description: 'Estimated tokens of this body.' }),
  truncated: Type.Boolean({ description: 'The budget cut something; omitted says what.' }),
  frame: Type.Optional(Type.Object({ url: Type.String(), name: Type.Optional(Type.String()) })),
  text: Type.Optional(Type.String({ description: 'format=text: the facts as compact text.' })),
};

const ContainerResponse = Type.Object(
  {
    ...Envelope,
    target: Type.Optional(Type.Object({ tagName: Type.String(), text: Type.String(), attributes: Attrs })),
    ancestors: Type.Optional(
      Type.Array(
        Type.Object({
          level: Type.Integer(),
          tagName: Type.String(),
          attributes: Attrs,
          childElements: Type.Integer(),
          shadowHost: Type.Optional(Type.Boolean({ description: 'The level below is inside this element\'s open shadow root.' })),
          ref: Type.Optional(Type.String({ description: 'This element\'s own ref.' })),
          containsRefs: Type.Optional(
            Type.Object({
              count: Type.Integer(),
              refs: Type.Array(Type.String(), { description: 'The first few, in document order.' }),
              complete: Type.Boolean({ description: 'false: count is a lower bound.' }),
            }),
          ),
        }),
      ),
    ),
    note: Type.Optional(Type.String()),
    omitted: Type.Optional(Type.Object({ refs: Type.Integer(), ancestors: Type.Integer() })),
  },
  { additionalProperties: true },
);

const Outline = Type.Object({ tag: Type.String(), role: Type.Optional(Type.String()), text: Type.Optional(Type.String()), testId: Type.Optional(Type.String()) });

const PatternResponse = Type.Object(
  {
    ...Envelope,
    ancestorLevel: Type.Optional(Type.Integer()),
    containerAt: Type.Optional(Type.Object({ tagName: Type.String(), attributes: Attrs, childElements: Type.Integer() })),
    inShadowRoot: Type.Optional(Type.Boolean()),
    targetSiblingIndex: Type.Optional(Type.Integer()),
    totalSiblings: Type.Optional(Type.Integer()),
    siblings: Type.Optional(
      Type.Array(
        Type.Object({
          index: Type.Integer(),
          tagName: Type.String(),
          attributes: Attrs,
          childElements: Type.Integer(),
          containsText: Type.Array(Type.String()),
          textOmitted: Type.Optional(Type.Integer({ description: 'Text pieces left out (absent: none).' })),
          outline: Type.Array(Outline),
          outlineOmitted: Type.Optional(Type.Integer({ description: 'Outline items left out (absent: none).' })),
          containsTarget: Type.Optional(Type.Boolean()),
          ref: Type.Optional(Type.String({ description: "The sibling's snapshot ref, to act on it (absent: Playwright gave it none)." })),
        }),
      ),
    ),
    omitted: Type.Optional(Type.Object({ siblings: Type.Integer() })),
  },
  { additionalProperties: true },
);

const AnchorsResponse = Type.Object(
  {
    ...Envelope,
    ancestorAt: Type.Optional(Type.Object({ level: Type.Integer(), tagName: Type.String(), attributes: Attrs, childElements: Type.Integer() })),
    descendants: Type.Optional(
      Type.Array(
        Type.Object({
          depth: Type.Integer(),
          index: Type.Integer({ description: 'Position among its parent\'s element children.' }),
          tagName: Type.String(),
          attributes: Attrs,
          role: Type.Optional(Type.String({ description: 'Explicit or implicit ARIA role of the tag.' })),
          fullText: Type.Optional(Type.String()),
          directText: Type.Optional(Type.String()),
          kind: Type.Array(Type.String(), { description: 'heading, label, testid, interactive, text.' }),
          hidden: Type.Optional(Type.Boolean()),
          isTarget: Type.Optional(Type.Boolean()),
          containsTarget: Type.Optional(Type.Boolean()),
          ref: Type.Optional(Type.String({ description: "The anchor's snapshot ref, to act on it (absent: Playwright gave it none)." })),
        }),
      ),
    ),
    totalAnchors: Type.Optional(Type.Integer()),
    scannedElements: Type.Optional(Type.Integer()),
    omitted: Type.Optional(Type.Object({ anchors: Type.Integer(), beyondDepth: Type.Integer() })),
    scanLimitReached: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

const ERRORS = [400, 404, 409, 410, 504];

export const exploreOps: PageOp[] = [
  {
    name: 'explore.container',
    method: 'GET',
    path: '/explore/container',
    tag: 'explore',
    summary: 'Ancestor chain of a ref up to body: tags, stable attributes, child counts, refs inside each',
    query: Type.Object({ ref: Ref, page: Page, maxTokens: MaxTokens(1500), format: Format, maxRefs: Type.Optional(Type.Integer({ minimum: 0, maximum: 50, default: 5 })) }),
    response: ContainerResponse,
    errors: ERRORS,
    run: ({ state }, { query: q }) =>
      exploreContainer(state, { ref: q.ref as string, maxTokens: q.maxTokens as number | undefined, format: q.format as FactsFormat | undefined, maxRefs: q.maxRefs as number | undefined }),
  },
  {
    name: 'explore.pattern',
    method: 'GET',
    path: '/explore/pattern',
    tag: 'explore',
    summary: 'The container `level` ancestors up and its children: tags, attributes, text, shallow outline, targetSiblingIndex',
    query: Type.Object({ ref: Ref, level: Level, page: Page, maxTokens: MaxTokens(2500), format: Format, maxSiblings: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 24 })) }),
    response: PatternResponse,
    errors: ERRORS,
    run: ({ state }, { query: q }) =>
      explorePattern(state, {
        ref: q.ref as string,
        level: q.level as number,
        maxTokens: q.maxTokens as number | undefined,
        format: q.format as FactsFormat | undefined,
        maxSiblings: q.maxSiblings as number | undefined,
      }),
  },
  {
    name: 'explore.anchors',
    method: 'GET',
    path: '/explore/anchors',
    tag: 'explore',
    summary: 'Bounded deep scan of the ancestor `level` up: headings, labels, test ids, named controls, text, with depth and index',
    query: Type.Object({
      ref: Ref,
      level: Level,
      page: Page,
      maxTokens: MaxTokens(2000),
      format: Format,
      maxDescendants: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 60 })),
      maxDepth: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 12 })),
    }),
    response: AnchorsResponse,
    errors: ERRORS,
    run: ({ state }, { query: q }) =>
      exploreAnchors(state, {
        ref: q.ref as string,
        level: q.level as number,
        maxTokens: q.maxTokens as number | undefined,
        format: q.format as FactsFormat | undefined,
        maxDescendants: q.maxDescendants as number | undefined,
        maxDepth: q.maxDepth as number | undefined,
      }),
  },
];
