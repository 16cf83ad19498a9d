// In-page: the name of an inline SVG icon drawn by a common icon set (Lucide, Feather, Heroicons,
// Bootstrap Icons, Tabler, Material Design Icons, Material, Font Awesome), found by the exact
// fingerprint of its geometry (icon-print.ts) in a generated table of the icons whose names
// iconography.ts knows (icon-prints.generated.ts). A hit names the icon as its set does
// ("trash", "pencil", "content copy"); anything else stays unnamed: an exact print or nothing,
// never the nearest picture.

import { type IconPrim, MAX_PRINT_PRIMS, iconPrint } from './icon-print.js';
import { ICON_PRINTS } from './icon-prints.generated.js';

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
