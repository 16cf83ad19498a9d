#!/usr/bin/env node
// Writes src/bridge/injected/icon-prints.generated.ts: fingerprint → icon name, for the icons of
// the common icon sets whose name iconography.ts
// knows, so an icon-only control drawn with a pasted <svg> gets that name (surface-icons.ts).
// One vocabulary: an icon is kept only when iconography's own table reads its name as exactly one
// concept; one fingerprint drawn by icons of two different concepts (or by an icon of a concept
// and a known-but-other-concept icon) is left out. The fingerprint is the build output's
// icon-print.js, the very code that runs in the page.
//
// The sets are not dependencies (about 270 MB that every install would pay for one generated
// file): install them for the run only, at the versions the generated file's header names:
//
//   npm i --no-save -w @ariadne/page lucide-static@1.62.0 feather-icons@4.29.2 heroicons@2.2.0 \
//     bootstrap-icons@1.13.2 @tabler/icons@3.52.0 @mdi/svg@7.4.47 @material-design-icons/svg@0.14.15 \
//     @fortawesome/fontawesome-free@7.3.1
//   npx tsc -b && node packages/page/scripts/build-icon-prints.mjs [--stats]
//   then: node packages/page/scripts/build-bridge.mjs && npx tsc -b

import { readFile, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PKG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(PKG, 'src/bridge/injected/icon-prints.generated.ts');
const { canonicalIcon, printHash } = await import(path.join(PKG, 'dist/bridge/injected/icon-print.js'));
const { conceptsOfName, iconNorm, ICON_CONCEPTS } = await import(path.join(PKG, 'dist/targeting/iconography.js'));
const require = createRequire(path.join(PKG, 'package.json'));

// Each set: its package and the folders of SVG files (one icon a file, named as the set names it).
const SETS = [
  { pkg: 'lucide-static', dirs: ['icons'] },
  { pkg: 'feather-icons', dirs: ['dist/icons'] },
  { pkg: 'heroicons', dirs: ['24/outline', '24/solid', '20/solid', '16/solid'] },
  { pkg: 'bootstrap-icons', dirs: ['icons'] },
  { pkg: '@tabler/icons', dirs: ['icons/outline', 'icons/filled'] },
  { pkg: '@mdi/svg', dirs: ['svg'] },
  { pkg: '@material-design-icons/svg', dirs: ['filled', 'outlined', 'round', 'sharp', 'two-tone'] },
  { pkg: '@fortawesome/fontawesome-free', dirs: ['svgs/solid', 'svgs/regular'] },
];

const SHAPES = new Set(['path', 'line', 'polyline', 'polygon', 'circle', 'ellipse', 'rect']);
const NOT_DRAWN = new Set(['defs', 'clipPath', 'mask', 'symbol', 'pattern', 'marker', 'linearGradient', 'radialGradient', 'filter']);
// Trailing words that only say a variant (as iconography's NAME_NOISE): "trash-2", "heart-fill".
const NOISE = /^(?:o|fill|filled|outline|outlined|alt|sharp|round|rounded|two|tone|twotone|solid|regular|light|thin|bold|duotone|line|lg|sm|xs|xl|md|fw|icon|\d+)$/;

/** The drawn primitives of an SVG file, in document order, as the page would read them; null when it has what the page skips. */
function primsOf(text) {
  const src = text.replace(/<!--[\s\S]*?-->/g, '');
  const viewBox = /<svg\b[^>]*\bviewBox\s*=\s*["']([^"']*)["']/.exec(src)?.[1] ?? null;
  const prims = [];
  const hidden = [];
  let svgs = 0;
  for (const m of src.matchAll(/<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g)) {
    const [, close, tag, rest, self] = m;
    if (close) { if (hidden.at(-1) === tag) hidden.pop(); continue; }
    const attrs = new Map();
    for (const a of rest.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs.set(a[1], a[2] ?? a[3]);
    if (tag === 'svg' && svgs++) return null; // a nested picture: the page skips it
    if (attrs.has('transform') || /^(?:text|image|foreignObject|use)$/.test(tag)) return null;
    if (NOT_DRAWN.has(tag)) { if (!self) hidden.push(tag); continue; }
    if (hidden.length || !SHAPES.has(tag)) continue;
    prims.push({ tag, attr: (n) => attrs.get(n) ?? null });
  }
  return { prims, viewBox };
}

// Variant words only, stricter than iconography's noise: "view-360" is not a "view", "trash-2" is a trash.
const VARIANT = /^(?:o|fill|filled|outline|outlined|alt|solid|regular|sharp|round|rounded|[1-9])$/;
// Names the table's vocabulary gives another picture than this set draws under them (Tabler's and
// MDI's "switch" are two arrows, not a toggle).
const EXCLUDE = { '@tabler/icons': ['switch'], '@mdi/svg': ['switch'] };

/** The one concept iconography reads an icon-set name as (exactly, or less variant words), or null. */
function conceptOf(name, pkg) {
  const words = iconNorm(name).split(' ');
  while (words.length > 1 && VARIANT.test(words[words.length - 1])) words.pop();
  if (EXCLUDE[pkg]?.includes(words.join(' '))) return null;
  const n = words.join(' ');
  const ids = ICON_CONCEPTS.filter((c) => c.names.includes(n)).map((c) => c.id);
  return ids.length === 1 ? ids[0] : null;
}

/** The name to show: the set's own, less variant words, when iconography reads it (as any inferred name) as this concept alone. */
function displayName(name, concept) {
  const words = iconNorm(name).split(' ');
  const tries = [];
  for (let k = words.length; k >= 1; k--) {
    tries.push(words.slice(0, k).join(' '));
    if (!NOISE.test(words[k - 1])) break;
  }
  for (const t of tries.reverse()) {
    const ids = conceptsOfName(t, 'icon');
    if (ids.length === 1 && ids[0] === concept) return t;
  }
  return null;
}

async function main() {
  const stats = process.argv.includes('--stats');
  const byPrint = new Map(); // print → { concepts: Set, names: Set<display> }
  const sources = [];
  let files = 0, skipped = 0;
  for (const set of SETS) {
    let meta;
    try { meta = JSON.parse(await readFile(require.resolve(`${set.pkg}/package.json`), 'utf8')); } catch { console.warn(`not installed: ${set.pkg}`); continue; }
    const root = path.dirname(require.resolve(`${set.pkg}/package.json`));
    sources.push(`${set.pkg}@${meta.version} (${typeof meta.license === 'string' ? meta.license : JSON.stringify(meta.license)})`);
    for (const dir of set.dirs) {
      const names = (await readdir(path.join(root, dir))).filter((f) => f.endsWith('.svg'));
      for (const f of names) {
        files++;
        const got = primsOf(await readFile(path.join(root, dir, f), 'utf8'));
        const canon = got && canonicalIcon(got.prims, got.viewBox);
        if (!canon) { skipped++; continue; }
        const print = printHash(canon);
        const name = f.slice(0, -4);
        const concept = conceptOf(name, set.pkg);
        const entry = byPrint.get(print) ?? { concepts: new Set(), names: new Map(), canon };
        byPrint.set(print, entry);
        if (entry.canon !== canon) entry.collision = true; // two drawings, one hash: unusable
        // Every icon counts for ambiguity; only known names are shown.
        if (concept !== null) {
          entry.concepts.add(concept);
          const shown = displayName(name, concept);
          if (shown) entry.names.set(shown, concept);
        } else if (conceptsOfName(name, 'ligature').length) entry.concepts.add(-1); // a name of two concepts, or one read only loosely: keep its picture out
      }
    }
  }
  const byName = new Map();
  let dropped = 0;
  for (const [print, e] of byPrint) {
    if (!e.concepts.size) continue;
    if (e.concepts.size > 1 || e.collision || !e.names.size) { dropped++; continue; }
    const name = [...e.names.keys()].sort((a, b) => a.length - b.length || a.localeCompare(b))[0];
    if (!byName.has(name)) byName.set(name, []);
    byName.get(name).push(print);
  }
  const groups = [...byName.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([n, hs]) => `${n}:${hs.sort().join(',')}`);
  const entries = groups.reduce((k, g) => k + g.split(',').length, 0);
  const body = groups.join(';');
  const text = [
    '// GENERATED by packages/page/scripts/build-icon-prints.mjs — do not edit.',
    '// Regenerate: npx tsc -b && node packages/page/scripts/build-icon-prints.mjs, then build-bridge.mjs.',
    '// Fingerprints (icon-print.ts) of the icons whose names iconography.ts reads as one concept,',
    `// grouped by name ("name:print,print;..."): ${entries} prints, ${byName.size} names, from`,
    ...sources.map((s) => `//   ${s}`),
    '// Only hashes of their geometry and their names are kept here, no drawing.',
    '/* eslint-disable */',
    `export const ICON_PRINTS = ${JSON.stringify(body)};`,
    '',
  ].join('\n');
  await writeFile(OUT, text);
  console.log(`${files} icon files, ${skipped} unreadable or too big; ${entries} prints under ${byName.size} names (${dropped} ambiguous dropped); ${text.length} bytes -> ${path.relative(process.cwd(), OUT)}`);
  if (stats) {
    const per = new Map();
    for (const e of byPrint.values()) for (const c of e.concepts) if (c >= 0) per.set(c, (per.get(c) ?? 0) + 1);
    const missing = ICON_CONCEPTS.filter((c) => !per.has(c.id)).map((c) => c.pictures[0]);
    console.log(`concepts without any print: ${missing.join(', ')}`);
  }
}

await main();
