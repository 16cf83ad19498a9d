import { Type, type TObject, type TProperties } from 'typebox';
import {
  inspectAttributes, inspectDom, inspectFrames, inspectPosition, inspectQuery, inspectState, inspectTestIds, inspectText, inspectVisibility,
  type InspectFormat, type InspectOptions,
} from '@ariadne/page';
import type { PageOp } from './registry.js';

// Inspection tools (seed 002): each takes a ref or a selector and answers facts about
// the element (or the page), bounded, as JSON or compact text.

const Ref = Type.Optional(Type.String({ maxLength: 32, description: 'A ref from the latest snapshot.' }));
const Selector = Type.Optional(
  Type.String({ maxLength: 2000, description: 'testid:x, data-test:x, data-cy:x, CSS, or a Playwright selector (text=..., role=...). Bad syntax: 400 invalid_selector.' }),
);
const Format = Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('text')], { description: 'json (default) or compact text with ✓/✗ symbols.' }));
const MaxTokens = Type.Optional(Type.Integer({ minimum: 50, maximum: 100_000, default: 2000 }));
const Page = Type.Optional(Type.String({ maxLength: 64 }));

const base = { ref: Ref, selector: Selector, page: Page, format: Format, maxTokens: MaxTokens };
const query = (extra: TProperties = {}): TObject => Type.Object({ ...base, ...extra });

const Facts = (description: string) =>
  Type.Object(
    {
      format: Type.String(),
      tokens: Type.Integer(),
      truncated: Type.Boolean(),
      ref: Type.Optional(Type.String()),
      selector: Type.Optional(Type.String()),
      matches: Type.Optional(Type.Integer({ description: 'How many elements the selector matched (the first is inspected).' })),
      frame: Type.Optional(Type.Object({ url: Type.String(), frameSelector: Type.String() })),
      text: Type.Optional(Type.String()),
    },
    { additionalProperties: true, description },
  );

const spec = (q: Record<string, unknown>): InspectOptions => ({
  ref: q.ref as string | undefined,
  selector: q.selector as string | undefined,
  format: q.format as InspectFormat | undefined,
  maxTokens: q.maxTokens as number | undefined,
});

const ERRORS = [400, 404, 409, 410, 504];

export const inspectOps: PageOp[] = [
  {
    name: 'inspect.dom',
    method: 'GET',
    path: '/inspect/dom',
    tag: 'inspect',
    summary: 'Progressive DOM drill-down: semantic children (wrapper divs skipped) with geometry and layout; zoom with ref or selector',
    query: query({
      maxChildren: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
      maxDepth: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5, description: 'Wrapper levels to drill through.' })),
      includeHidden: Type.Optional(Type.Boolean({ default: false })),
    }),
    response: Facts('element, children[] (index, tag, attributes, role, box, text, visible, interactive, ref), semanticChildren, skippedWrappers, layout, omitted'),
    errors: ERRORS,
    run: ({ state }, { query: q }) =>
      inspectDom(state, { ...spec(q), maxChildren: q.maxChildren as number | undefined, maxDepth: q.maxDepth as number | undefined, includeHidden: q.includeHidden as boolean | undefined }),
  },
  {
    name: 'inspect.test-ids',
    method: 'GET',
    path: '/inspect/test-ids',
    tag: 'inspect',
    summary: 'Every test id on the page (all frames, open shadow roots), grouped by attribute, duplicates flagged',
    query: Type.Object({
      page: Page,
      format: Format,
      maxTokens: MaxTokens,
      attributes: Type.Optional(Type.String({ maxLength: 500, description: 'Comma list (default data-testid,data-test,data-cy).' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Distinct values per attribute.' })),
    }),
    response: Facts('total, byAttribute{attr: [{value, count, tag, visible}]}, duplicates[], omitted'),
    errors: [400, 404, 409, 410, 504],
    run: ({ state }, { query: q }) =>
      inspectTestIds(state, { attributes: q.attributes as string | undefined, limit: q.limit as number | undefined, format: q.format as InspectFormat | undefined, maxTokens: q.maxTokens as number | undefined }),
  },
  {
    name: 'inspect.query',
    method: 'GET',
    path: '/inspect/query',
    tag: 'inspect',
    summary: 'Test a selector: every match (bounded) with box, text, visibility and why hidden',
    query: Type.Object({
      selector: Type.String({ minLength: 1, maxLength: 2000, description: 'testid:x, data-test:x, data-cy:x, CSS, or a Playwright selector.' }),
      page: Page,
      format: Format,
      maxTokens: MaxTokens,
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 10 })),
    }),
    response: Facts('matches, elements[] (index, tag, attributes, role, box, text, visible, hiddenReasons, inViewport, interactive, ref: the element\'s snapshot ref to act on), omitted'),
    errors: ERRORS,
    run: ({ state }, { query: q }) =>
      inspectQuery(state, { selector: q.selector as string, limit: q.limit as number | undefined, format: q.format as InspectFormat | undefined, maxTokens: q.maxTokens as number | undefined }),
  },
  {
    name: 'inspect.visibility',
    method: 'GET',
    path: '/inspect/visibility',
    tag: 'inspect',
    summary: 'Why a click might fail: visible, viewport ratio, clipped, covered (and by what), needs scroll',
    query: query(),
    response: Facts('visible, hiddenReasons, inViewport, viewportRatio, opacity, display, visibility, clipped, clippedBy, covered, coveredBy, needsScroll, box, viewport'),
    errors: ERRORS,
    run: ({ state }, { query: q }) => inspectVisibility(state, spec(q)),
  },
  {
    name: 'inspect.position',
    method: 'GET',
    path: '/inspect/position',
    tag: 'inspect',
    summary: 'Box of an element (frame viewport coordinates), page coordinates, in viewport',
    query: query(),
    response: Facts('x, y, width, height, inViewport, viewportRatio, viewport, scroll, page'),
    errors: ERRORS,
    run: ({ state }, { query: q }) => inspectPosition(state, spec(q)),
  },
  {
    name: 'inspect.state',
    method: 'GET',
    path: '/inspect/state',
    tag: 'inspect',
    summary: 'Interaction state: enabled, editable, checked, selected, focused, required, aria states, value',
    query: query(),
    response: Facts('tag, role, enabled, disabled, ariaDisabled, editable, readOnly, focused, visible, checked, selected, required, aria*, type, value'),
    errors: ERRORS,
    run: ({ state }, { query: q }) => inspectState(state, spec(q)),
  },
  {
    name: 'inspect.attributes',
    method: 'GET',
    path: '/inspect/attributes',
    tag: 'inspect',
    summary: 'Attributes of an element grouped as all / data / aria',
    query: query({ filter: Type.Optional(Type.String({ maxLength: 1000, description: 'Comma list of attribute names.' })) }),
    response: Facts('tag, all{}, data{}, aria{}, count, omitted'),
    errors: ERRORS,
    run: ({ state }, { query: q }) => inspectAttributes(state, { ...spec(q), filter: q.filter as string | undefined }),
  },
  {
    name: 'inspect.frames',
    method: 'GET',
    path: '/inspect/frames',
    tag: 'inspect',
    summary: 'Every iframe (nested too): selector chain, name, src, URL, size, visible',
    query: Type.Object({ page: Page, format: Format, maxTokens: MaxTokens }),
    response: Facts('count, frames[] (index, url, name, depth, frameSelector, selector, src, title, box, visible), omitted'),
    errors: [400, 404, 409, 410, 504],
    run: ({ state }, { query: q }) => inspectFrames(state, { format: q.format as InspectFormat | undefined, maxTokens: q.maxTokens as number | undefined }),
  },
  {
    name: 'inspect.text',
    method: 'GET',
    path: '/inspect/text',
    tag: 'inspect',
    summary: 'Text of an element (innerText when rendered), bounded',
    query: query({ maxChars: Type.Optional(Type.Integer({ minimum: 1, maximum: 400_000, default: 2000 })) }),
    response: Facts('tag, text, length, truncated, source'),
    errors: ERRORS,
    run: ({ state }, { query: q }) => inspectText(state, { ...spec(q), maxChars: q.maxChars as number | undefined }),
  },
];
