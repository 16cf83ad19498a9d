// In-page: the picture an inline SVG draws, read from its geometry, for icon-only controls whose
// only picture is an <svg> with no <title>, no text, no aria and no class word (Heroicons,
// Feather, Lucide, Tabler, Bootstrap Icons and Material pasted inline, hand-drawn toolbars).
// A small set of universal pictures is told by shape, not by any icon set's numbers: × + − ✓,
// chevrons ‹ › ⌃ ⌄, arrows ← → ↑ ↓, ☰, ⋯ ⋮, ★ and 🔍. The name is the glyph itself, which
// iconography.ts reads as its concept ("×" is close, "›" next). Anything else: no name.
//
// Outline icons are strokes; filled icons are outlines of thick bars, turned back into strokes by
// pairing each long edge with the parallel edge across the bar. Work is bounded: few primitives,
// short path data, small pictures only.

export type Glyph = '×' | '+' | '−' | '✓' | '‹' | '›' | '⌃' | '⌄' | '←' | '→' | '↑' | '↓' | '☰' | '⋯' | '⋮' | '★' | '🔍';

interface P { x: number; y: number }
/** One subpath: its points, whether the piece into point i+1 was a curve, closed or not. */
interface Sub { pts: P[]; curve: boolean[]; closed: boolean }
interface Seg { a: P; b: P; w: number }
interface Circle { c: P; r: number }
/** A square outline or tile behind a glyph (x-square, a red square with a white ×). */
interface Frame { x0: number; y0: number; x1: number; y1: number }
interface Features { segs: Seg[]; circles: Circle[]; frames: Frame[]; dots: P[]; stars: number; other: number }

const MAX_PRIMITIVES = 12;
const MAX_D = 1500;
const MAX_POINTS = 300;
const MAX_BOX_PX = 64;
const SHAPES = 'path, line, polyline, polygon, circle, ellipse, rect';
const NOT_DRAWN = 'defs, clipPath, mask, symbol, pattern, marker, linearGradient, radialGradient, filter';

// ---------------------------------------------------------------------------------------------
// Path data: M L H V Z exactly; C S Q T sampled; A sampled through its centre.

function num(s: string | null): number {
  const v = parseFloat(s ?? '');
  return Number.isFinite(v) ? v : 0;
}

/** Subpaths of an SVG path `d`, in user units; null when it cannot be read or is too long. */
export function parsePath(d: string): Sub[] | null {
  if (d.length > MAX_D) return null;
  const subs: Sub[] = [];
  let i = 0;
  const n = d.length;
  const skip = () => { while (i < n && /[\s,]/.test(d[i])) i++; };
  const number = (): number | null => {
    skip();
    const m = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(d.slice(i, i + 40));
    if (!m) return null;
    i += m[0].length;
    return parseFloat(m[0]);
  };
  const flag = (): number | null => { skip(); const c = d[i]; if (c !== '0' && c !== '1') return null; i++; return c === '1' ? 1 : 0; };
  let cur: P = { x: 0, y: 0 };
  let start: P = { x: 0, y: 0 };
  let sub: Sub | null = null;
  let lastCtrl: P | null = null;
  let lastCmd = '';
  let points = 0;
  const open = () => { if (!sub) { sub = { pts: [{ ...cur }], curve: [], closed: false }; subs.push(sub); } return sub; };
  const to = (p: P, curve: boolean) => { const s = open(); s.pts.push(p); s.curve.push(curve); cur = p; points++; };
  let cmd = '';
  while (i < n) {
    skip();
    if (i >= n) break;
    // Numbers repeat the last command; after Z they would loop forever.
    if (/[a-zA-Z]/.test(d[i])) cmd = d[i++];
    else if (!cmd || cmd === 'Z' || cmd === 'z') return null;
    const rel = cmd === cmd.toLowerCase();
    const C = cmd.toUpperCase();
    const ox = rel ? cur.x : 0;
    const oy = rel ? cur.y : 0;
    if (C === 'Z') {
      if (sub) { (sub as Sub).closed = true; if (cur.x !== start.x || cur.y !== start.y) to({ ...start }, false); }
      cur = { ...start };
      sub = null;
      lastCmd = 'Z';
      lastCtrl = null;
      continue;
    }
    if (C === 'M') {
      const x = number(); const y = number();
      if (x === null || y === null) return null;
      cur = { x: ox + x, y: oy + y };
      start = { ...cur };
      sub = null;
      cmd = rel ? 'l' : 'L'; // further pairs are lines
      lastCtrl = null;
      lastCmd = 'M';
      continue;
    }
    if (C === 'L') { const x = number(); const y = number(); if (x === null || y === null) return null; to({ x: ox + x, y: oy + y }, false); }
    else if (C === 'H') { const x = number(); if (x === null) return null; to({ x: ox + x, y: cur.y }, false); }
    else if (C === 'V') { const y = number(); if (y === null) return null; to({ x: cur.x, y: oy + y }, false); }
    else if (C === 'C' || C === 'S' || C === 'Q' || C === 'T') {
      const vals: number[] = [];
      const need = C === 'C' ? 6 : C === 'S' || C === 'Q' ? 4 : 2;
      for (let k = 0; k < need; k++) { const v = number(); if (v === null) return null; vals.push(v); }
      const p0 = cur;
      const reflected = lastCtrl && /[CSQT]/.test(lastCmd) ? { x: 2 * p0.x - lastCtrl.x, y: 2 * p0.y - lastCtrl.y } : { ...p0 };
      let c1: P, c2: P, end: P;
      if (C === 'C') { c1 = { x: ox + vals[0], y: oy + vals[1] }; c2 = { x: ox + vals[2], y: oy + vals[3] }; end = { x: ox + vals[4], y: oy + vals[5] }; }
      else if (C === 'S') { c1 = reflected; c2 = { x: ox + vals[0], y: oy + vals[1] }; end = { x: ox + vals[2], y: oy + vals[3] }; }
      else if (C === 'Q') { c1 = { x: ox + vals[0], y: oy + vals[1] }; c2 = c1; end = { x: ox + vals[2], y: oy + vals[3] }; }
      else { c1 = reflected; c2 = c1; end = { x: ox + vals[0], y: oy + vals[1] }; }
      const quad = C === 'Q' || C === 'T';
      for (const t of [0.25, 0.5, 0.75, 1]) {
        const u = 1 - t;
        const p = quad
          ? { x: u * u * p0.x + 2 * u * t * c1.x + t * t * end.x, y: u * u * p0.y + 2 * u * t * c1.y + t * t * end.y }
          : { x: u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * end.x, y: u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * end.y };
        to(t === 1 ? end : p, true);
      }
      lastCtrl = c2;
      lastCmd = C;
      if (points > MAX_POINTS) return null;
      continue;
    } else if (C === 'A') {
      const rx = number(); const ry = number(); const rot = number(); const large = flag(); const sweep = flag(); const x = number(); const y = number();
      if (rx === null || ry === null || rot === null || large === null || sweep === null || x === null || y === null) return null;
      for (const p of arcPoints(cur, { x: ox + x, y: oy + y }, Math.abs(rx), Math.abs(ry), rot, large, sweep)) to(p, true);
    } else return null;
    lastCmd = C;
    lastCtrl = null;
    if (points > MAX_POINTS) return null;
  }
  return subs;
}

/** Points along an SVG arc (endpoint form, converted to its centre: SVG 1.1 appendix F.6.5). */
function arcPoints(p0: P, p1: P, rx: number, ry: number, rotDeg: number, large: number, sweep: number): P[] {
  if (!rx || !ry || (p0.x === p1.x && p0.y === p1.y)) return [p1];
  const phi = (rotDeg * Math.PI) / 180;
  const cos = Math.cos(phi), sin = Math.sin(phi);
  const dx = (p0.x - p1.x) / 2, dy = (p0.y - p1.y) / 2;
  const x1 = cos * dx + sin * dy, y1 = -sin * dx + cos * dy;
  const lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry);
  if (lambda > 1) { rx *= Math.sqrt(lambda); ry *= Math.sqrt(lambda); }
  const num2 = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1;
  const den = rx * rx * y1 * y1 + ry * ry * x1 * x1;
  let k = Math.sqrt(Math.max(0, num2 / den));
  if (large === sweep) k = -k;
  const cx1 = (k * rx * y1) / ry, cy1 = (-k * ry * x1) / rx;
  const cx = cos * cx1 - sin * cy1 + (p0.x + p1.x) / 2;
  const cy = sin * cx1 + cos * cy1 + (p0.y + p1.y) / 2;
  const ang = (ux: number, uy: number, vx: number, vy: number) => {
    const a = Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
    return a;
  };
  const t1 = ang(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry);
  let dt = ang((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry);
  if (!sweep && dt > 0) dt -= 2 * Math.PI;
  if (sweep && dt < 0) dt += 2 * Math.PI;
  const steps = Math.max(2, Math.ceil(Math.abs(dt) / (Math.PI / 6)));
  const out: P[] = [];
  for (let s = 1; s <= steps; s++) {
    if (s === steps) { out.push(p1); break; }
    const t = t1 + (dt * s) / steps;
    const ex = rx * Math.cos(t), ey = ry * Math.sin(t);
    out.push({ x: cos * ex - sin * ey + cx, y: sin * ex + cos * ey + cy });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Geometry helpers (coordinates normalised so the viewBox's larger side is 1).

const dist = (a: P, b: P) => Math.hypot(a.x - b.x, a.y - b.y);
const len = (s: Seg) => dist(s.a, s.b);
/** Direction of a segment in degrees, folded into [0, 180). */
function dirOf(a: P, b: P): number {
  let t = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
  if (t < 0) t += 180;
  return t >= 180 ? t - 180 : t;
}
function dirDiff(a: number, b: number): number {
  const d = Math.abs(a - b) % 180;
  return Math.min(d, 180 - d);
}
function bbox(pts: P[]): { x0: number; y0: number; x1: number; y1: number } {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const p of pts) { x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y); x1 = Math.max(x1, p.x); y1 = Math.max(y1, p.y); }
  return { x0, y0, x1, y1 };
}
/** Intersection of the infinite lines through two segments, with each segment's parameter there. */
function cross(s: Seg, t: Seg): { p: P; u: number; v: number } | null {
  const rx = s.b.x - s.a.x, ry = s.b.y - s.a.y, qx = t.b.x - t.a.x, qy = t.b.y - t.a.y;
  const den = rx * qy - ry * qx;
  if (Math.abs(den) < 1e-9) return null;
  const u = ((t.a.x - s.a.x) * qy - (t.a.y - s.a.y) * qx) / den;
  const v = ((t.a.x - s.a.x) * ry - (t.a.y - s.a.y) * rx) / den;
  return { p: { x: s.a.x + u * rx, y: s.a.y + u * ry }, u, v };
}

/** A closed run of points all about one distance from their centre: a circle (or ring, or disc). */
function asCircle(sub: Sub): Circle | null {
  const pts = sub.pts;
  if (pts.length < 8 || !sub.closed) return null;
  const curved = sub.curve.filter(Boolean).length;
  if (curved < sub.curve.length * 0.6 && pts.length < 12) return null;
  const b = bbox(pts);
  const w = b.x1 - b.x0, h = b.y1 - b.y0;
  if (!w || !h || w / h > 1.2 || h / w > 1.2) return null;
  const c = { x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2 };
  const rs = pts.map((p) => dist(p, c));
  const r = rs.reduce((a, x) => a + x, 0) / rs.length;
  return rs.every((x) => Math.abs(x - r) <= r * 0.15) ? { c, r } : null;
}

/** A closed outline with five tips at one radius and five notches at about half of it: a star. */
function isStar(sub: Sub): boolean {
  const pts = sub.pts;
  if (pts.length < 10 || pts.length > 80) return false;
  // Area centroid (shoelace): the tips are not where the bounding box centres them.
  let a = 0, cx = 0, cy = 0;
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i], q = pts[(i + 1) % pts.length];
    const f = p.x * q.y - q.x * p.y;
    a += f; cx += (p.x + q.x) * f; cy += (p.y + q.y) * f;
  }
  if (Math.abs(a) < 1e-9) return false;
  const c = { x: cx / (3 * a), y: cy / (3 * a) };
  const rs = pts.map((p) => dist(p, c));
  const rmax = Math.max(...rs);
  const rmin = Math.min(...rs);
  if (rmin / rmax < 0.25 || rmin / rmax > 0.65) return false;
  // Runs of points near the outer radius, cyclically: the tips.
  const high = rs.map((r) => r >= rmax * 0.8);
  const first = high.indexOf(false);
  if (first < 0) return false;
  const tips: number[] = [];
  for (let k = 0, inRun = false; k < pts.length; k++) {
    const i = (first + k) % pts.length;
    if (high[i] && !inRun) { tips.push(i); inRun = true; } else if (!high[i]) inRun = false;
  }
  if (tips.length !== 5) return false;
  const angles = tips.map((i) => Math.atan2(pts[i].y - c.y, pts[i].x - c.x)).sort((x, y) => x - y);
  for (let k = 0; k < 5; k++) {
    let d = ((angles[(k + 1) % 5] - angles[k]) * 180) / Math.PI;
    if (d <= 0) d += 360;
    if (Math.abs(d - 72) > 16) return false;
  }
  return true;
}

/**
 * A filled outline of thick bars (a filled ×, +, chevron, arrow): each long edge paired with the
 * parallel edge across its bar gives the bar's centre line. Null when a long edge has no partner
 * (the shape is not made of bars).
 */
function barsOf(sub: Sub): Seg[] | null {
  const pts = sub.pts;
  const edges: Seg[] = [];
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i], b = pts[(i + 1) % pts.length];
    if (dist(a, b) >= 0.1) edges.push({ a, b, w: 0 });
  }
  if (!edges.length || edges.length > 24) return null;
  const pairs: { i: number; j: number; d: number; lo: number; hi: number }[] = [];
  for (let i = 0; i < edges.length; i++) {
    for (let j = i + 1; j < edges.length; j++) {
      const e = edges[i], f = edges[j];
      if (dirDiff(dirOf(e.a, e.b), dirOf(f.a, f.b)) > 5) continue;
      const ux = (e.b.x - e.a.x) / len(e), uy = (e.b.y - e.a.y) / len(e);
      const d = Math.abs((f.a.x - e.a.x) * uy - (f.a.y - e.a.y) * ux);
      if (d < 0.015 || d > 0.2) continue;
      const proj = (p: P) => (p.x - e.a.x) * ux + (p.y - e.a.y) * uy;
      const lo = Math.max(Math.min(0, len(e)), Math.min(proj(f.a), proj(f.b)));
      const hi = Math.min(len(e), Math.max(proj(f.a), proj(f.b)));
      if (hi - lo < 0.6 * Math.min(len(e), len(f))) continue;
      pairs.push({ i, j, d, lo, hi });
    }
  }
  pairs.sort((x, y) => x.d - y.d);
  const used = new Set<number>();
  const out: Seg[] = [];
  for (const p of pairs) {
    if (used.has(p.i) || used.has(p.j)) continue;
    used.add(p.i); used.add(p.j);
    const e = edges[p.i], f = edges[p.j];
    const ux = (e.b.x - e.a.x) / len(e), uy = (e.b.y - e.a.y) / len(e);
    // The centre line: halfway across, over the stretch both edges share.
    const side = (f.a.x - e.a.x) * -uy + (f.a.y - e.a.y) * ux;
    const nx = -uy * (side / 2), ny = ux * (side / 2);
    out.push({ a: { x: e.a.x + ux * p.lo + nx, y: e.a.y + uy * p.lo + ny }, b: { x: e.a.x + ux * p.hi + nx, y: e.a.y + uy * p.hi + ny }, w: p.d });
  }
  // What is left unpaired may only be a bar's end (a square cap about as long as the bar is thick).
  const thick = Math.max(0, ...out.map((s) => s.w));
  return out.length && edges.every((e, i) => used.has(i) || len(e) <= thick * 1.6) ? out : null;
}

/** Collinear pieces that touch or nearly touch become one stroke (a path drawn in parts, a bar's two halves). */
function mergeSegs(segs: Seg[]): Seg[] {
  const list = segs.filter((s) => len(s) > 0.02);
  for (let changed = true; changed;) {
    changed = false;
    outer: for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const s = list[i], t = list[j];
        if (dirDiff(dirOf(s.a, s.b), dirOf(t.a, t.b)) > 6) continue;
        const ux = (s.b.x - s.a.x) / len(s), uy = (s.b.y - s.a.y) / len(s);
        const off = (p: P) => Math.abs((p.x - s.a.x) * uy - (p.y - s.a.y) * ux);
        const w = Math.max(s.w, t.w);
        if (off(t.a) > 0.03 + w / 2 || off(t.b) > 0.03 + w / 2) continue;
        const proj = (p: P) => (p.x - s.a.x) * ux + (p.y - s.a.y) * uy;
        const ps = [0, len(s), proj(t.a), proj(t.b)];
        const gap = Math.max(Math.min(proj(t.a), proj(t.b)) - len(s), -Math.max(proj(t.a), proj(t.b)));
        if (gap > Math.max(0.05, 2 * w)) continue;
        const lo = Math.min(...ps), hi = Math.max(...ps);
        list[i] = { a: { x: s.a.x + ux * lo, y: s.a.y + uy * lo }, b: { x: s.a.x + ux * hi, y: s.a.y + uy * hi }, w };
        list.splice(j, 1);
        changed = true;
        break outer;
      }
    }
  }
  return list;
}

// ---------------------------------------------------------------------------------------------
// Classification.

const horizontal = (s: Seg, tol = 8) => dirDiff(dirOf(s.a, s.b), 0) <= tol;
const vertical = (s: Seg, tol = 8) => dirDiff(dirOf(s.a, s.b), 90) <= tol;

/** Two strokes meeting at one end: the vertex and the two arms (vertex → far end). */
function vertexOf(s: Seg, t: Seg, tol: number): { v: P; ea: P; eb: P } | null {
  const x = cross(s, t);
  if (!x) return null;
  const nearS = dist(x.p, s.a) < dist(x.p, s.b) ? s.a : s.b;
  const nearT = dist(x.p, t.a) < dist(x.p, t.b) ? t.a : t.b;
  if (dist(x.p, nearS) > tol || dist(x.p, nearT) > tol) return null;
  return { v: x.p, ea: nearS === s.a ? s.b : s.a, eb: nearT === t.a ? t.b : t.a };
}

/** Which way a wedge points (from its opening to its vertex), if along an axis. */
function pointing(v: P, ea: P, eb: P): { dir: 'l' | 'r' | 'u' | 'd'; ratio: number; angle: number; ux: number; uy: number } | null {
  const la = dist(v, ea), lb = dist(v, eb);
  if (la < 0.08 || lb < 0.08) return null;
  const ax = (ea.x - v.x) / la, ay = (ea.y - v.y) / la, bx = (eb.x - v.x) / lb, by = (eb.y - v.y) / lb;
  const angle = (Math.acos(Math.max(-1, Math.min(1, ax * bx + ay * by))) * 180) / Math.PI;
  let ux = -(ax + bx), uy = -(ay + by);
  const m = Math.hypot(ux, uy);
  if (m < 1e-6) return null;
  ux /= m; uy /= m;
  const ratio = Math.min(la, lb) / Math.max(la, lb);
  const deg = (Math.atan2(uy, ux) * 180) / Math.PI;
  const near = (target: number) => Math.abs(((deg - target + 540) % 360) - 180) <= 20;
  const dir = near(0) ? 'r' : near(180) ? 'l' : near(90) ? 'd' : near(-90) ? 'u' : null;
  return dir ? { dir, ratio, angle, ux, uy } : null;
}

const CHEVRON: Record<string, Glyph> = { l: '‹', r: '›', u: '⌃', d: '⌄' };
const ARROW: Record<string, Glyph> = { l: '←', r: '→', u: '↑', d: '↓' };

function strokes(segs: Seg[]): Glyph | null {
  const w = Math.max(0, ...segs.map((s) => s.w));
  const tol = Math.max(0.08, 2 * w);
  if (segs.length === 1) {
    const s = segs[0];
    const cy = (s.a.y + s.b.y) / 2;
    return horizontal(s) && len(s) >= 0.3 && cy > 0.3 && cy < 0.7 ? '−' : null;
  }
  if (segs.length === 2) {
    const [s, t] = segs;
    const ratio = Math.min(len(s), len(t)) / Math.max(len(s), len(t));
    const x = cross(s, t);
    if (x && x.u > 0.25 && x.u < 0.75 && x.v > 0.25 && x.v < 0.75 && ratio >= 0.6) {
      if ((horizontal(s, 10) && vertical(t, 10)) || (vertical(s, 10) && horizontal(t, 10))) return '+';
      const diag = (q: Seg) => Math.abs(dirDiff(dirOf(q.a, q.b), 0) - 45) <= 15;
      if (diag(s) && diag(t) && dirDiff(dirOf(s.a, s.b), dirOf(t.a, t.b)) >= 70) return '×';
      return null;
    }
    const vx = vertexOf(s, t, tol);
    if (!vx) return null;
    const { v, ea, eb } = vx;
    const wedge = pointing(v, ea, eb);
    const angle = wedge?.angle ?? 0;
    // ✓: the short arm up to the left, the long arm up to the right, the vertex lowest.
    const [short, long] = dist(v, ea) < dist(v, eb) ? [ea, eb] : [eb, ea];
    const r = dist(v, short) / dist(v, long);
    if (r >= 0.25 && r <= 0.7 && short.x < v.x && long.x > v.x && v.y > short.y + 0.05 && v.y > long.y + 0.05 && long.y < short.y) {
      const a = (Math.acos(((short.x - v.x) * (long.x - v.x) + (short.y - v.y) * (long.y - v.y)) / (dist(v, short) * dist(v, long))) * 180) / Math.PI;
      return a >= 50 && a <= 130 ? '✓' : null;
    }
    if (wedge && wedge.ratio >= 0.75 && angle >= 50 && angle <= 130) return CHEVRON[wedge.dir];
    return null;
  }
  if (segs.length === 3) {
    // ☰: three level strokes of about one length, evenly stacked, aligned.
    if (segs.every((s) => horizontal(s, 6))) {
      const ls = segs.map(len);
      if (Math.min(...ls) / Math.max(...ls) < 0.7) return null;
      const byY = [...segs].sort((p, q) => p.a.y + p.b.y - q.a.y - q.b.y);
      const ys = byY.map((s) => (s.a.y + s.b.y) / 2);
      const g1 = ys[1] - ys[0], g2 = ys[2] - ys[1];
      if (g1 < 0.12 || g2 < 0.12 || Math.min(g1, g2) / Math.max(g1, g2) < 0.7) return null;
      const lefts = byY.map((s) => Math.min(s.a.x, s.b.x));
      const mids = byY.map((s) => (s.a.x + s.b.x) / 2);
      const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
      return spread(lefts) <= 0.1 || spread(mids) <= 0.1 ? '☰' : null;
    }
    // An arrow: a wedge (its head) and a shaft from the wedge's vertex back through its opening.
    for (let k = 0; k < 3; k++) {
      const shaft = segs[k];
      const [s, t] = segs.filter((_, i) => i !== k);
      const vx = vertexOf(s, t, tol);
      if (!vx) continue;
      const wedge = pointing(vx.v, vx.ea, vx.eb);
      if (!wedge || wedge.ratio < 0.75 || wedge.angle < 50 || wedge.angle > 130) continue;
      const [near, far] = dist(shaft.a, vx.v) < dist(shaft.b, vx.v) ? [shaft.a, shaft.b] : [shaft.b, shaft.a];
      if (dist(near, vx.v) > tol) continue;
      const sx = (near.x - far.x) / len(shaft), sy = (near.y - far.y) / len(shaft);
      if (sx * wedge.ux + sy * wedge.uy < Math.cos((12 * Math.PI) / 180)) continue;
      if (len(shaft) < 1.0 * Math.max(dist(vx.v, vx.ea), dist(vx.v, vx.eb))) continue;
      return ARROW[wedge.dir];
    }
  }
  return null;
}

/** The glyph the features draw, or null. */
export function classify(f: Features): Glyph | null {
  if (f.other) return null;
  const segs = mergeSegs(f.segs);
  // Concentric outlines (a ring drawn as two circles) are one circle.
  const circles: Circle[] = [];
  for (const c of f.circles) if (!circles.some((o) => dist(o.c, c.c) < 0.05 && Math.abs(o.r - c.r) < 0.15)) circles.push(c);
  const dots = f.dots;
  if (f.stars) return f.stars === 1 && !segs.length && !circles.length && !dots.length ? '★' : null;
  if (dots.length && (segs.length || circles.length)) return null;
  if (dots.length) {
    if (dots.length !== 3) return null;
    const xs = dots.map((d) => d.x), ys = dots.map((d) => d.y);
    const spread = (v: number[]) => Math.max(...v) - Math.min(...v);
    const even = (v: number[]) => {
      const s = [...v].sort((a, b) => a - b);
      const g1 = s[1] - s[0], g2 = s[2] - s[1];
      return g1 >= 0.1 && g2 >= 0.1 && Math.min(g1, g2) / Math.max(g1, g2) >= 0.7;
    };
    if (spread(ys) <= 0.05 && even(xs)) return '⋯';
    if (spread(xs) <= 0.05 && even(ys)) return '⋮';
    return null;
  }
  if (circles.length === 1) {
    const c = circles[0];
    // 🔍: a lens and a short handle leaving it outward on a diagonal.
    if (segs.length === 1 && c.r >= 0.18 && c.r <= 0.45) {
      const s = segs[0];
      const [near, far] = dist(s.a, c.c) < dist(s.b, c.c) ? [s.a, s.b] : [s.b, s.a];
      const dn = dist(near, c.c), df = dist(far, c.c);
      const diag = Math.abs(dirDiff(dirOf(s.a, s.b), 0) - 45) <= 20;
      const ox = (far.x - near.x) / len(s), oy = (far.y - near.y) / len(s);
      const rx = (near.x - c.c.x) / (dn || 1), ry = (near.y - c.c.y) / (dn || 1);
      if (diag && dn >= 0.8 * c.r && dn <= 1.5 * c.r && df > dn + 0.08 && ox * rx + oy * ry >= Math.cos((25 * Math.PI) / 180)) return '🔍';
    }
    // A glyph inside a ring (x-circle, plus-circle, check-circle, arrow-right-circle): the glyph.
    if (c.r >= 0.3 && segs.length && segs.every((s) => dist(s.a, c.c) < c.r * 0.95 && dist(s.b, c.c) < c.r * 0.95)) {
      const g = strokes(segs);
      return g && g !== '☰' ? g : null;
    }
    return null;
  }
  if (circles.length) return null;
  if (f.frames.length) {
    // A glyph on a square tile or in a square outline: the glyph. Two frames, or strokes
    // leaving the frame, are a picture of something else (a window, a document).
    const fr = f.frames[0];
    const inside = (p: P) => p.x > fr.x0 && p.x < fr.x1 && p.y > fr.y0 && p.y < fr.y1;
    if (f.frames.length > 1 || !segs.length || !segs.every((s) => inside(s.a) && inside(s.b))) return null;
    const g = strokes(segs);
    return g && g !== '☰' && g !== '−' ? g : null;
  }
  return segs.length ? strokes(segs) : null;
}

// ---------------------------------------------------------------------------------------------
// Reading an <svg> element.

function viewBoxOf(svg: Element): { x: number; y: number; s: number } | null {
  const vb = (svg.getAttribute('viewBox') ?? '').trim().split(/[\s,]+/).map(Number);
  if (vb.length === 4 && vb.every(Number.isFinite) && vb[2] > 0 && vb[3] > 0) return { x: vb[0], y: vb[1], s: Math.max(vb[2], vb[3]) };
  const w = num(svg.getAttribute('width')), h = num(svg.getAttribute('height'));
  return w > 0 && h > 0 ? { x: 0, y: 0, s: Math.max(w, h) } : null;
}

function subsOf(el: Element): Sub[] | null {
  const a = (n: string) => num(el.getAttribute(n));
  switch (el.localName) {
    case 'path': return parsePath(el.getAttribute('d') ?? '');
    case 'line': return [{ pts: [{ x: a('x1'), y: a('y1') }, { x: a('x2'), y: a('y2') }], curve: [false], closed: false }];
    case 'polyline':
    case 'polygon': {
      const v = (el.getAttribute('points') ?? '').trim().split(/[\s,]+/).filter(Boolean).map(Number);
      if (v.length < 4 || v.length > 200 || v.some((x) => !Number.isFinite(x))) return null;
      const pts: P[] = [];
      for (let k = 0; k + 1 < v.length; k += 2) pts.push({ x: v[k], y: v[k + 1] });
      const closed = el.localName === 'polygon';
      if (closed) pts.push({ ...pts[0] });
      return [{ pts, curve: pts.slice(1).map(() => false), closed }];
    }
    case 'circle':
    case 'ellipse': {
      const rx = el.localName === 'circle' ? a('r') : a('rx');
      const ry = el.localName === 'circle' ? a('r') : a('ry');
      if (rx <= 0 || ry <= 0) return null;
      const pts: P[] = [];
      for (let k = 0; k <= 12; k++) pts.push({ x: a('cx') + rx * Math.cos((k * Math.PI) / 6), y: a('cy') + ry * Math.sin((k * Math.PI) / 6) });
      return [{ pts, curve: pts.slice(1).map(() => true), closed: true }];
    }
    case 'rect': {
      const x = a('x'), y = a('y'), w = a('width'), h = a('height');
      if (w <= 0 || h <= 0) return null;
      const pts = [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }, { x, y }];
      return [{ pts, curve: [false, false, false, false], closed: true }];
    }
  }
  return null;
}

/**
 * A closed square (or square with rounded corners) that fills most of the picture: every point
 * on its bounding box's edges. Its inside is where a glyph sits, as in a ring.
 */
function isFrame(pts: P[], b: { x0: number; y0: number; x1: number; y1: number }): boolean {
  const w = b.x1 - b.x0, h = b.y1 - b.y0;
  if (Math.min(w, h) < 0.55 || w > 1.34 * h || h > 1.34 * w || pts.length < 4) return false;
  const onEdge = (p: P) => Math.min(Math.abs(p.x - b.x0), Math.abs(p.x - b.x1), Math.abs(p.y - b.y0), Math.abs(p.y - b.y1)) <= 0.07;
  // Each corner drawn (squarely or a little rounded): a circle touches its box only mid-edge.
  const corners = [[b.x0, b.y0], [b.x1, b.y0], [b.x1, b.y1], [b.x0, b.y1]];
  return pts.every(onEdge) && corners.every(([x, y]) => pts.some((p) => Math.abs(p.x - x) + Math.abs(p.y - y) <= 0.1));
}

/** What one subpath contributes, stroked or filled, in normalised coordinates. */
function addSub(f: Features, sub: Sub, filled: boolean, w: number): void {
  const b = bbox(sub.pts);
  const size = Math.max(b.x1 - b.x0, b.y1 - b.y0);
  const centre = { x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2 };
  if (sub.pts.length < 2) return;
  if (size < 0.04 || ((sub.closed || filled || sub.curve.some(Boolean)) && size <= 0.18 && (b.x1 - b.x0) <= 2 * (b.y1 - b.y0) + 0.02 && (b.y1 - b.y0) <= 2 * (b.x1 - b.x0) + 0.02)) {
    f.dots.push(centre);
    return;
  }
  const closed = sub.closed || filled;
  const circ = closed ? asCircle({ ...sub, closed: true }) : null;
  if (circ) { if (circ.r < 0.11) f.dots.push(circ.c); else f.circles.push(circ); return; }
  if (closed && isFrame(dedupe(sub.pts), b)) { f.frames.push(b); return; }
  if (closed && isStar({ ...sub, pts: dedupe(sub.pts) })) { f.stars++; return; }
  if (filled) {
    const bars = barsOf({ ...sub, pts: dedupe(sub.pts) });
    if (!bars) { f.other++; return; }
    f.segs.push(...bars);
    return;
  }
  for (let i = 0; i + 1 < sub.pts.length; i++) {
    const a = sub.pts[i], c = sub.pts[i + 1];
    if (sub.curve[i]) {
      // A rounded join between strokes is not a curve of the picture.
      if (dist(a, c) > 0.06) { f.other++; return; }
      continue;
    }
    if (dist(a, c) > 0.02) f.segs.push({ a, b: c, w });
  }
}

function dedupe(pts: P[]): P[] {
  const out: P[] = [];
  for (const p of pts) if (!out.length || dist(out[out.length - 1], p) > 1e-3) out.push(p);
  if (out.length > 1 && dist(out[0], out[out.length - 1]) <= 1e-3) out.pop();
  return out;
}

/** How one primitive is painted, in the svg's user units. */
export interface Paint { shown: boolean; stroked: boolean; filled: boolean; strokeWidth: number }

/** Paint from the live computed style (an inline <svg> in the page). */
function livePaint(el: Element): Paint {
  const st = getComputedStyle(el);
  return {
    shown: st.display !== 'none' && st.visibility !== 'hidden' && Number(st.opacity) !== 0,
    stroked: st.stroke !== 'none' && !st.stroke.startsWith('url') && num(st.strokeWidth) > 0 && Number(st.strokeOpacity) !== 0,
    filled: st.fill !== 'none' && Number(st.fillOpacity) !== 0,
    strokeWidth: num(st.strokeWidth),
  };
}

/**
 * Paint from presentation attributes and inline styles, inherited from the ancestors as SVG
 * does: for a picture that is not rendered as a DOM of the page (an <img>'s data: SVG, parsed
 * apart), where there is no computed style. SVG's defaults: filled black, no stroke, width 1.
 */
export function attributePaint(el: Element): Paint {
  const prop = (name: string): string | null => {
    for (let e: Element | null = el; e; e = e.parentElement) {
      const inline = new RegExp(`(?:^|;)\\s*${name}\\s*:\\s*([^;!]+)`, 'i').exec(e.getAttribute('style') ?? '')?.[1];
      const v = (inline ?? e.getAttribute(name))?.trim();
      if (v && v !== 'inherit') return v;
    }
    return null;
  };
  const none = (v: string | null) => v !== null && /^(?:none|transparent)$/i.test(v);
  const zero = (v: string | null) => v !== null && Number(v) === 0;
  const stroke = prop('stroke');
  const width = prop('stroke-width');
  const strokeWidth = width === null ? 1 : num(width);
  return {
    shown: !(el.closest('[display="none"], [visibility="hidden"]')) && !zero(prop('opacity')),
    stroked: stroke !== null && !none(stroke) && !stroke.startsWith('url') && strokeWidth > 0 && !zero(prop('stroke-opacity')),
    filled: !none(prop('fill')) && !zero(prop('fill-opacity')),
    strokeWidth,
  };
}

/**
 * The glyph an inline <svg> draws, or null: only its own primitives (no transforms, nested
 * pictures, images or text), few of them, in an svg no larger than a control's icon.
 */
export function svgGlyph(svg: Element): Glyph | null {
  const box = svg.getBoundingClientRect();
  if (box.width > MAX_BOX_PX || box.height > MAX_BOX_PX) return null;
  return drawingGlyph(svg, livePaint);
}

/** The glyph an <svg> root's drawing shows, each primitive painted as `paint` says. */
export function drawingGlyph(svg: Element, paint: (el: Element) => Paint): Glyph | null {
  const vb = viewBoxOf(svg);
  if (!vb) return null;
  if (svg.hasAttribute('transform') || svg.querySelector('text, image, foreignObject, use, svg, [transform]')) return null;
  const prims = Array.from(svg.querySelectorAll(SHAPES)).filter((e) => !e.closest(NOT_DRAWN));
  if (!prims.length || prims.length > MAX_PRIMITIVES) return null;
  const f: Features = { segs: [], circles: [], frames: [], dots: [], stars: 0, other: 0 };
  for (const el of prims) {
    const p = paint(el);
    if (!p.shown) continue;
    if (!p.stroked && !p.filled) continue; // an invisible guide (Tabler's bounding box path)
    const subs = subsOf(el);
    if (!subs) return null;
    const w = p.stroked ? p.strokeWidth / vb.s : 0;
    for (const sub of subs) {
      const norm: Sub = { ...sub, pts: sub.pts.map((q) => ({ x: (q.x - vb.x) / vb.s, y: (q.y - vb.y) / vb.s })) };
      // A lone moveto draws nothing.
      if (norm.pts.length < 2) continue;
      addSub(f, norm, !p.stroked, w);
      if (f.other) return null;
    }
  }
  return classify(f);
}
