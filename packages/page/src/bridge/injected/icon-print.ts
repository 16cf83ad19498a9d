// The fingerprint of an inline SVG icon: the geometry its primitives draw, written one way, then
// hashed. Pure (no DOM): the in-page lookup (surface-icons.ts) and the table's generator
// (scripts/build-icon-prints.mjs, through the build output) both call it, so a pasted icon and
// the icon set's own file meet on one string.
//
// What it survives, because pasting and minifying change it without changing the picture:
// whitespace, commas, number spelling (".5", "0.50", "5e-1"), relative or absolute commands,
// H/V for L, S/T for C/Q, implicit repeated commands, a line back to the start before Z, shapes
// written as paths (line, polyline, polygon, a square-cornered rect), <g> wrappers, attribute
// order, stroke/fill/class/style (never read), and an invisible guide covering the whole viewBox
// (Tabler's `M0 0h24v24H0z`). Coordinates stay in the viewBox's own units (the viewBox is kept
// when an icon is pasted), rounded to 1/1000 so summing relative steps cannot move them.

/** One drawn primitive: its tag and its attributes. */
export interface IconPrim { tag: string; attr(name: string): string | null }

// Bounds: an icon is a few primitives of short path data; anything bigger is not looked up.
export const MAX_PRINT_PRIMS = 16;
export const MAX_PRINT_CHARS = 5000;

const n3 = (v: number): string => String(Math.round(v * 1000) || 0);

/** The canonical commands of a path's `d`, or null when it cannot be read. */
export function canonicalPath(d: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  const len = d.length;
  const skip = () => { while (i < len && (d[i] === ' ' || d[i] === ',' || d[i] === '\n' || d[i] === '\t' || d[i] === '\r')) i++; };
  const NUM = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/y;
  const num = (): number | null => {
    skip();
    NUM.lastIndex = i;
    const m = NUM.exec(d);
    if (!m) return null;
    i += m[0].length;
    return parseFloat(m[0]);
  };
  const flag = (): number | null => { skip(); const c = d[i]; if (c !== '0' && c !== '1') return null; i++; return c === '1' ? 1 : 0; };
  let cx = 0, cy = 0, sx = 0, sy = 0;
  let ctrl: [number, number] | null = null; // last cubic or quadratic control, for S and T
  let prev = '';
  let cmd = '';
  let pendingMove: string | null = null;
  const draw = (tok: string) => { if (pendingMove) { out.push(pendingMove); pendingMove = null; } out.push(tok); };
  while (i < len) {
    skip();
    if (i >= len) break;
    const ch = d[i];
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) { cmd = ch; i++; }
    else if (!cmd || cmd === 'z' || cmd === 'Z') return null;
    const rel = cmd >= 'a';
    const C = cmd.toUpperCase();
    const ox = rel ? cx : 0, oy = rel ? cy : 0;
    if (C === 'Z') {
      // A line back to the start, then Z, is Z alone.
      if (!pendingMove && out.length && out[out.length - 1] === `L ${n3(sx)} ${n3(sy)}`) out.pop();
      if (!pendingMove) out.push('Z');
      cx = sx; cy = sy; ctrl = null; prev = 'Z';
      continue;
    }
    if (C === 'M') {
      const x = num(), y = num();
      if (x === null || y === null) return null;
      cx = ox + x; cy = oy + y; sx = cx; sy = cy;
      pendingMove = `M ${n3(cx)} ${n3(cy)}`; // dropped unless something is drawn from here
      cmd = rel ? 'l' : 'L';
      ctrl = null; prev = 'M';
      continue;
    }
    if (C === 'L' || C === 'H' || C === 'V') {
      let x = cx, y = cy;
      if (C === 'L') { const a = num(), b = num(); if (a === null || b === null) return null; x = ox + a; y = oy + b; }
      else if (C === 'H') { const a = num(); if (a === null) return null; x = ox + a; }
      else { const b = num(); if (b === null) return null; y = oy + b; }
      draw(`L ${n3(x)} ${n3(y)}`);
      cx = x; cy = y; ctrl = null; prev = 'L';
      continue;
    }
    if (C === 'C' || C === 'S' || C === 'Q' || C === 'T') {
      const need = C === 'C' ? 6 : C === 'T' ? 2 : 4;
      const v: number[] = [];
      for (let k = 0; k < need; k++) { const a = num(); if (a === null) return null; v.push(a); }
      const cubic = C === 'C' || C === 'S';
      const reflects = ctrl && (cubic ? prev === 'C' : prev === 'Q');
      const refl: [number, number] = reflects ? [2 * cx - ctrl![0], 2 * cy - ctrl![1]] : [cx, cy];
      let tok: string;
      let next: [number, number];
      let ex: number, ey: number;
      if (C === 'C') { next = [ox + v[2], oy + v[3]]; ex = ox + v[4]; ey = oy + v[5]; tok = `C ${n3(ox + v[0])} ${n3(oy + v[1])} ${n3(next[0])} ${n3(next[1])}`; }
      else if (C === 'S') { next = [ox + v[0], oy + v[1]]; ex = ox + v[2]; ey = oy + v[3]; tok = `C ${n3(refl[0])} ${n3(refl[1])} ${n3(next[0])} ${n3(next[1])}`; }
      else if (C === 'Q') { next = [ox + v[0], oy + v[1]]; ex = ox + v[2]; ey = oy + v[3]; tok = `Q ${n3(next[0])} ${n3(next[1])}`; }
      else { next = refl; ex = ox + v[0]; ey = oy + v[1]; tok = `Q ${n3(next[0])} ${n3(next[1])}`; }
      draw(`${tok} ${n3(ex)} ${n3(ey)}`);
      cx = ex; cy = ey; ctrl = next; prev = cubic ? 'C' : 'Q';
      continue;
    }
    if (C === 'A') {
      const rx = num(), ry = num(), rot = num(), large = flag(), sweep = flag(), x = num(), y = num();
      if (rx === null || ry === null || rot === null || large === null || sweep === null || x === null || y === null) return null;
      draw(`A ${n3(Math.abs(rx))} ${n3(Math.abs(ry))} ${n3(rot)} ${large} ${sweep} ${n3(ox + x)} ${n3(oy + y)}`);
      cx = ox + x; cy = oy + y; ctrl = null; prev = 'A';
      continue;
    }
    return null;
  }
  return out;
}

function attrNum(p: IconPrim, name: string): number {
  const v = parseFloat(p.attr(name) ?? '');
  return Number.isFinite(v) ? v : 0;
}

function pointsPath(points: string, closed: boolean): string[] | null {
  const v = points.trim().split(/[\s,]+/).filter(Boolean).map(Number);
  if (v.length < 4 || v.length % 2 || v.some((x) => !Number.isFinite(x))) return null;
  let d = `M${v[0]} ${v[1]}`;
  for (let k = 2; k < v.length; k += 2) d += `L${v[k]} ${v[k + 1]}`;
  return canonicalPath(closed ? `${d}Z` : d);
}

/** One primitive's canonical commands; [] for one that draws nothing; null when unreadable. */
export function canonicalPrim(p: IconPrim): string[] | null {
  const a = (name: string) => attrNum(p, name);
  switch (p.tag) {
    case 'path': return canonicalPath(p.attr('d') ?? '');
    case 'line': return canonicalPath(`M${a('x1')} ${a('y1')}L${a('x2')} ${a('y2')}`);
    case 'polyline': return pointsPath(p.attr('points') ?? '', false);
    case 'polygon': return pointsPath(p.attr('points') ?? '', true);
    case 'circle': return a('r') > 0 ? [`O ${n3(a('cx'))} ${n3(a('cy'))} ${n3(a('r'))} ${n3(a('r'))}`] : [];
    case 'ellipse': return a('rx') > 0 && a('ry') > 0 ? [`O ${n3(a('cx'))} ${n3(a('cy'))} ${n3(a('rx'))} ${n3(a('ry'))}`] : [];
    case 'rect': {
      const x = a('x'), y = a('y'), w = a('width'), h = a('height');
      if (w <= 0 || h <= 0) return [];
      // One radius given stands for both (SVG 2).
      const rx = p.attr('rx') !== null ? a('rx') : a('ry'), ry = p.attr('ry') !== null ? a('ry') : a('rx');
      if (rx > 0 || ry > 0) return [`R ${n3(x)} ${n3(y)} ${n3(w)} ${n3(h)} ${n3(Math.min(rx, w / 2))} ${n3(Math.min(ry, h / 2))}`];
      return canonicalPath(`M${x} ${y}H${x + w}V${y + h}H${x}Z`);
    }
  }
  return null;
}

/** FNV-1a, 32 bits, base 36: the table's key. */
export function printHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return (h >>> 0).toString(36);
}

/**
 * The canonical text of an icon's drawing (its primitives in document order), or null when it
 * is too big, draws nothing, or holds something this cannot read. `viewBox` names the guide
 * rectangle to leave out.
 */
export function canonicalIcon(prims: IconPrim[], viewBox: string | null): string | null {
  if (!prims.length || prims.length > MAX_PRINT_PRIMS) return null;
  let chars = 0;
  for (const p of prims) chars += (p.attr('d') ?? p.attr('points') ?? '').length;
  if (chars > MAX_PRINT_CHARS) return null;
  const vb = (viewBox ?? '').trim().split(/[\s,]+/).map(Number);
  const guide = vb.length === 4 && vb.every(Number.isFinite)
    ? canonicalPath(`M${vb[0]} ${vb[1]}H${vb[0] + vb[2]}V${vb[1] + vb[3]}H${vb[0]}Z`)!.join(' ')
    : null;
  const parts: string[] = [];
  for (const p of prims) {
    const c = canonicalPrim(p);
    if (!c) return null;
    const s = c.join(' ');
    if (!s || s === guide) continue;
    parts.push(s);
  }
  return parts.length ? parts.join(' ') : null;
}

/** The icon's fingerprint (see canonicalIcon), or null. */
export function iconPrint(prims: IconPrim[], viewBox: string | null): string | null {
  const c = canonicalIcon(prims, viewBox);
  return c === null ? null : printHash(c);
}
