// Screenshots of corpus pages in their initial state, and a goals list beside them, for
// whoever writes plans from what a person sees (the weakly labelled pages, weak-*).
//   node tests/corpus/screenshot.mjs [--pages=weak] [--out=/work/shots]
// Writes OUT/<page>.png (1280×900 viewport) and OUT/goals.md (per page: the screenshot,
// each task id + goal, each must-fail id + goal), read from the pages' JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startCorpusServer } from './server.mjs';
import { loadCorpus } from './runner.mjs';

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
const only = arg('pages', 'weak');
const out = arg('out', '/work/shots');
mkdirSync(out, { recursive: true });

const pages = loadCorpus().filter((p) => only.split(',').some((s) => p.name.includes(s)));
const server = await startCorpusServer();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const lines = ['# Weakly labelled corpus pages: screenshots and goals', '',
  'Each screenshot is the page as first loaded (1280×900). Goals say what a person sees; content behind tabs, menus, accordions or trees is named by what opens it.', ''];
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  for (const p of pages) {
    await page.goto(`${server.url}${p.path}`);
    await page.waitForLoadState('load');
    const file = path.join(out, `${p.name}.png`);
    await page.screenshot({ path: file });
    // Only what a person would know: the page, its screenshot and the goals (not the JSON's
    // title, which describes the markup).
    lines.push(`## ${p.name}`, '', `Page: \`${p.path}\` — screenshot: \`${file}\``, '', '### Tasks', '');
    for (const t of p.tasks) lines.push(`- \`${t.id}\`: ${t.goal ?? '(no goal)'}`);
    lines.push('', '### Must fail (the page cannot do these; a run must fail)', '');
    for (const t of p.mustFail) lines.push(`- \`${t.id}\`: ${t.goal ?? '(no goal)'}`);
    lines.push('');
    console.log(`${p.name}: ${file}`);
  }
  await ctx.close();
} finally {
  await browser.close();
  await server.close();
}
writeFileSync(path.join(out, 'goals.md'), lines.join('\n'));
console.log(`${path.join(out, 'goals.md')}: ${pages.length} page(s)`);
