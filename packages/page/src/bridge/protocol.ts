// Types shared by the host (Node) and the in-page bridge (bundled separately with
// esbuild), and the one constant both sides must agree on.

/** Line the serializer leaves where a child frame's lines go (the host splices them in). */
export const FRAME_MARK = '\u0001FRAME ';

export type Attrs = Record<string, string>;

export interface BridgeErrorResult {
  __error: { code: string; message: string; details?: Record<string, unknown> };
}

/** Returned by a world that did not catch the element(s) of this call's slot. */
export interface BridgeMissResult {
  __miss: true;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

// ---- explore ---------------------------------------------------------------

export interface TargetFacts {
  tagName: string;
  text: string;
  attributes: Attrs;
}

export interface AncestorFacts {
  level: number;
  tagName: string;
  attributes: Attrs;
  childElements: number;
  /** The level below lives in this element's open shadow root. */
  shadowHost?: true;
  /** Ref of this very element, when it is one of the resolved path refs. */
  ref?: string;
  /** Outermost resolved path ref inside (or equal to) this element: its subtree refs are contained. */
  outerRefInside?: string;
}

export interface ContainerFacts {
  target: TargetFacts;
  ancestors: AncestorFacts[];
  /** Path refs that reached this world (a stale one does not). */
  resolvedPathRefs: string[];
}

export interface OutlineItem {
  tag: string;
  role?: string;
  text?: string;
  testId?: string;
}

export interface SiblingFacts {
  index: number;
  tagName: string;
  attributes: Attrs;
  childElements: number;
  containsText: string[];
  textOmitted?: number;
  outline: OutlineItem[];
  outlineOmitted?: number;
  containsTarget?: true;
}

export interface PatternFacts {
  ancestorLevel: number;
  containerAt: { tagName: string; attributes: Attrs; childElements: number };
  /** The container's children are those of its open shadow root. */
  inShadowRoot?: true;
  targetSiblingIndex: number;
  totalSiblings: number;
  siblings: SiblingFacts[];
  omitted: { siblings: number };
}

export interface AnchorFacts {
  depth: number;
  index: number;
  tagName: string;
  attributes: Attrs;
  role?: string;
  fullText?: string;
  directText?: string;
  kind: string[];
  hidden?: true;
  isTarget?: true;
  containsTarget?: true;
}

export interface AnchorsFacts {
  ancestorAt: { level: number; tagName: string; attributes: Attrs; childElements: number };
  descendants: AnchorFacts[];
  totalAnchors: number;
  scannedElements: number;
  omitted: { anchors: number; beyondDepth: number };
  scanLimitReached?: true;
}
