// Which Node versions Ariadne runs on, and which of them are past their end of life.
// Plain Node with no dependencies and no syntax newer than Node 12: scripts/bootstrap.mjs
// imports it before `npm install` has run, on whatever Node the machine has.

/**
 * End of life of each release line (https://github.com/nodejs/release#release-schedule):
 * even lines are LTS for 30 months, odd lines live 6 months after their release.
 * A line not listed here is newer than this table and taken as supported.
 */
export const END_OF_LIFE = {
  18: '2025-04-30',
  19: '2023-06-01',
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};

/**
 * The lowest version of each line every dependency accepts (their own `engines`, read from
 * package-lock.json: docs/development.md lists them). A line below the first is refused;
 * a line between two listed ones (21) is refused; lines above the last are accepted.
 * package.json's `engines` is built from it (tests/runtime.test.ts compares them).
 */
export const MINIMUM = { 20: '20.19.0', 22: '22.12.0' };

/** The `engines.node` range MINIMUM stands for: "^20.19.0 || >=22.12.0". */
export function enginesRange() {
  const lines = Object.keys(MINIMUM).map(Number).sort((a, b) => a - b);
  return lines.map((l, i) => (i === lines.length - 1 ? `>=${MINIMUM[l]}` : `^${MINIMUM[l]}`)).join(' || ');
}

function parse(version) {
  return String(version).replace(/^v/, '').split('.').map((n) => Number(n) || 0);
}

function atLeast(a, b) {
  for (let i = 0; i < 3; i++) if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
  return true;
}

/**
 * What to say about a Node version: `{ refuse }` when the code cannot run on it,
 * `{ warning }` when it runs but its line is past its end of life on `today`
 * (a Date or an ISO date), `{}` otherwise.
 */
export function nodeSupport(version, today) {
  const v = parse(version);
  const major = v[0];
  const lines = Object.keys(MINIMUM).map(Number).sort((a, b) => a - b);
  const wanted = `Node ${enginesRange()} is required (package.json "engines")`;
  if (major < lines[0]) return { refuse: `${wanted}, this is v${v.join('.')}. Install a maintained LTS line (https://nodejs.org/en/about/previous-releases).` };
  const line = lines.filter((l) => l <= major).pop();
  const inLine = line === major || line === lines[lines.length - 1];
  if (!inLine || !atLeast(v, parse(MINIMUM[line]))) {
    return { refuse: `${wanted}, this is v${v.join('.')}. Update Node (https://nodejs.org/en/about/previous-releases).` };
  }
  const eol = END_OF_LIFE[major];
  const day = (today instanceof Date ? today.toISOString() : String(today)).slice(0, 10);
  if (eol && day >= eol) {
    return {
      warning: `Node ${major} reached its end of life on ${eol} and gets no security fixes: fine for development, ` +
        'not for a service others use. The Docker image runs a maintained LTS line (see docs/docker.md).',
    };
  }
  return {};
}
