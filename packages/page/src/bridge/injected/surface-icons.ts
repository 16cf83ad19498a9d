// In-page: the name of an inline SVG icon drawn by a common icon set (Lucide, Feather, Heroicons,
// Bootstrap Icons, Tabler, Material Design Icons, Material, Font Awesome), found by the exact
// fingerprint of its geometry (icon-print.ts) in a generated table of the icons whose names
// iconography.ts knows (icon-prints.generated.ts). A hit names the icon as its set does
// ("trash", "pencil", "content copy"); anything else stays unnamed: an exact print or nothing,
// never the nearest picture.

import { type IconPrim, MAX_PRINT_PRIMS, iconPrint } from './icon-print.js';
import { ICON_PRINTS } from './icon-prints.generated.js';
import { attributePaint, drawingGlyph, type Glyph } from './surface-glyphs.js';

const SHAPES = 'path, line, polyline, polygon, circle, ellipse, rect';
const NOT_DRAWN = 'defs, clipPath, mask, symbol, pattern, marker, linearGradient, radialGradient, filter';
const MAX_BOX_PX = 64;

let table: Map<string, string> | null = null;

/** The table, read on the first lookup (a page without such an SVG never pays for it). */
function prints(): Map<string, string> {
  if (table) return table;
  table = new Map();
  for (const group of ICON_PRINTS.split(';')) {
    const at = group.indexOf(':');
    if (at < 0) continue;
    const name = group.slice(0, at);
    for (const h of group.slice(at + 1).split(',')) table.set(h, name);
  }
  return table;
}

/** The icon-set name of the picture this <svg> draws, or null. */
export function svgIconSetName(svg: Element): string | null {
  const box = svg.getBoundingClientRect();
  if (box.width > MAX_BOX_PX || box.height > MAX_BOX_PX) return null;
  return drawingSetName(svg);
}

function drawingSetName(svg: Element): string | null {
  if (svg.hasAttribute('transform') || svg.querySelector('text, image, foreignObject, use, svg, [transform]')) return null;
  const els = svg.querySelectorAll(SHAPES);
  if (!els.length || els.length > MAX_PRINT_PRIMS * 2) return null;
  const prims: IconPrim[] = [];
  for (const el of Array.from(els)) {
    if (el.closest(NOT_DRAWN)) continue;
    prims.push({ tag: el.localName, attr: (n) => el.getAttribute(n) });
  }
  const print = iconPrint(prims, svg.getAttribute('viewBox'));
  return print ? prints().get(print) ?? null : null;
}

// An <img> or <input type="image"> whose src is the picture itself, an SVG in a data: URL (pages
// that ship as one file, and build tools that inline small images): read as an inline <svg> is,
// from a document parsed apart from the page (nothing is added to the page's DOM).
const MAX_DATA_URL = 12_000;
const dataPictures = new Map<string, { words: string | null; glyph: Glyph | null; set: string | null }>();

/** The glyph or icon-set name of a data:image/svg+xml picture, or null. */
export function dataSvgName(src: string): { name: string; from: 'svg-title' | 'shape' | 'icon' } | null {
  if (!/^data:image\/svg\+xml/i.test(src) || src.length > MAX_DATA_URL) return null;
  let seen = dataPictures.get(src);
  if (!seen) {
    seen = { words: null, glyph: null, set: null };
    const svg = parseDataSvg(src);
    if (svg) {
      seen.words = pictureWords(svg);
      seen.glyph = seen.words ? null : drawingGlyph(svg, attributePaint);
      seen.set = seen.words || seen.glyph ? null : drawingSetName(svg);
    }
    if (dataPictures.size > 200) dataPictures.clear();
    dataPictures.set(src, seen);
  }
  if (seen.words) return { name: seen.words, from: 'svg-title' };
  if (seen.glyph) return { name: seen.glyph, from: 'shape' };
  return seen.set ? { name: seen.set, from: 'icon' } : null;
}

/**
 * What a picture says in words: its <title>, else the short text it draws (a "×" or "+" set
 * in a font, "PDF" on a tile). Long text is a picture of a text, not a name.
 */
function pictureWords(svg: Element): string | null {
  const norm = (t: string | null | undefined) => (t ?? '').replace(/\s+/g, ' ').trim();
  const title = norm(svg.querySelector('title')?.textContent);
  if (title && title.length <= 60) return title;
  const texts = Array.from(svg.querySelectorAll('text'));
  const said = norm(texts.map((t) => t.textContent).join(' '));
  return texts.length && texts.length <= 2 && said && said.length <= 12 ? said : null;
}

function parseDataSvg(src: string): Element | null {
  const comma = src.indexOf(',');
  if (comma < 0) return null;
  const head = src.slice(0, comma);
  try {
    const text = /;base64$/i.test(head) ? atob(src.slice(comma + 1)) : decodeURIComponent(src.slice(comma + 1));
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = doc.documentElement;
    return root.localName === 'svg' && !doc.querySelector('parsererror') ? root : null;
  } catch {
    // Not decodable, or a page whose Trusted Types policy refuses the parser: no name from it.
    return null;
  }
}
