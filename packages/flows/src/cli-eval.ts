import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { localServer, parseCommandLine, type Api } from './cli-api.js';
import { EvalInputError, isCorpusDir, loadCorpusCases, loadPlanFolder, startCorpus, type EvalCase } from './eval/cases.js';
import { formatResult, formatTotals, runEval } from './eval/run.js';

// `ariadne eval <folder>`: runs a corpus of plans with one planner and model and says, per
// case, whether it was solved, failed honestly or went silently wrong, with model turns,
// tokens and time, then the totals — so an operator sees whether a model is good enough
// before trusting it with deploy checks. The folder is either a folder of plans with
// their expected outcomes (eval/cases.ts) or the project's corpus (tests/corpus).

const USAGE = `Usage: ariadne eval <folder> [options]

<folder> is a folder of plans (*.md, each with optional front matter: url, expect: pass|fail,
var.NAME: value) or the project's corpus (tests/corpus: its plan episodes, judged by the pages).

Options:
  --planner NAME        rules (default), openai or anthropic
  --model NAME          model for openai/anthropic
  --model-key KEY       model API key (else OPENAI_API_KEY / ANTHROPIC_API_KEY; Ollama and
                        LM Studio take any non-empty key)
  --base-url URL        model API base URL (OpenAI-compatible: Ollama, vLLM, LM Studio)
  --url URL             base for plans whose front matter url is a path
  --page NAME           corpus only: this page's episodes, or one episode id such as
                        todo-react/add/plan2 (repeat for more)
  --limit N             run only the first N cases
  --max-tokens N        token cap per run (one run per case): the case ends honestly at it
  --case-timeout S      seconds a case may take
  --json FILE           write every result and the totals as JSON
  --server URL          use a running Ariadne (else ARIADNE_SERVER, else start one here)
  --token KEY           API key of that server (else ARIADNE_TOKEN)
  --corpus-url URL      corpus only: where its pages are served (else a corpus server starts here)
  --quiet               only the totals
Exit codes: 0 no silent wrong, 1 at least one silent wrong, 2 the eval could not run.`;

export async function evalMain(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(() => parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      planner: { type: 'string' }, model: { type: 'string' }, 'model-key': { type: 'string' }, 'base-url': { type: 'string' },
      url: { type: 'string' }, page: { type: 'string', multiple: true }, limit: { type: 'string' }, 'max-tokens': { type: 'string' },
      'case-timeout': { type: 'string' }, json: { type: 'string' }, server: { type: 'string' }, token: { type: 'string' },
      'corpus-url': { type: 'string' }, quiet: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  }), USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values: o, positionals } = parsed;
  const [dir] = positionals;
  if (!dir) {
    console.error(USAGE);
    return 2;
  }
  const planner = o.planner ?? 'rules';
  if (!['rules', 'openai', 'anthropic'].includes(planner)) {
    console.error(`--planner is rules, openai or anthropic, not "${planner}"`);
    return 2;
  }
  const int = (v: string | undefined, name: string): number | undefined | null => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) {
      console.error(`${name} takes a whole number, not "${v}"`);
      return null;
    }
    return n;
  };
  const limit = int(o.limit, '--limit');
  const maxTokens = int(o['max-tokens'], '--max-tokens');
  const caseTimeout = int(o['case-timeout'], '--case-timeout');
  if (limit === null || maxTokens === null || caseTimeout === null) return 2;
  const apiKey = o['model-key'] ?? (planner === 'anthropic' ? process.env.ANTHROPIC_API_KEY : planner === 'openai' ? process.env.OPENAI_API_KEY : undefined);

  const stops: (() => Promise<void>)[] = [];
  try {
    let cases: EvalCase[];
    try {
      if (isCorpusDir(dir)) {
        let corpusUrl = o['corpus-url']?.replace(/\/$/, '');
        if (!corpusUrl) {
          const corpus = await startCorpus(dir);
          stops.push(() => corpus.close());
          corpusUrl = corpus.url;
        }
        cases = await loadCorpusCases(dir, corpusUrl, { pages: o.page, limit });
      } else {
        cases = loadPlanFolder(dir, o.url);
        if (limit !== undefined) cases = cases.slice(0, limit);
      }
    } catch (err) {
      if (err instanceof EvalInputError) {
        console.error(`ariadne eval: ${err.message}`);
        return 2;
      }
      throw err;
    }
    if (!cases.length) {
      console.error('ariadne eval: no case to run (check --page and --limit)');
      return 2;
    }

    let api: Api;
    const serverUrl = o.server ?? process.env.ARIADNE_SERVER;
    if (serverUrl) api = { base: serverUrl.replace(/\/$/, ''), token: o.token ?? process.env.ARIADNE_TOKEN };
    else {
      try {
        const local = await localServer();
        stops.push(local.stop);
        api = local.api;
      } catch (err) {
        console.error(`Could not start Ariadne here: ${(err as Error).message}`);
        return 2;
      }
    }
    const who = `${planner}${o.model ? ` ${o.model}` : ''}${o['base-url'] ? ` at ${o['base-url']}` : ''}`;
    if (!o.quiet) console.log(`Eval of ${dir}: ${cases.length} case(s), planner ${who}`);
    const options = {
      ...(maxTokens !== undefined ? { maxTokensPerRun: maxTokens } : {}),
      ...(caseTimeout !== undefined ? { caseTimeoutSeconds: caseTimeout } : {}),
    };
    const { results, totals } = await runEval(api, cases, { planner, ...(o.model ? { model: o.model } : {}), ...(apiKey ? { apiKey } : {}), ...(o['base-url'] ? { baseUrl: o['base-url'] } : {}), options }, (r) => {
      if (!o.quiet) console.log(formatResult(r));
    });
    console.log(formatTotals(totals, who));
    if (o.json) writeFileSync(o.json, `${JSON.stringify({ planner, model: o.model ?? null, baseUrl: o['base-url'] ?? null, results, totals }, null, 2)}\n`);
    return totals.silent > 0 ? 1 : 0;
  } catch (err) {
    console.error(`ariadne eval: ${(err as Error).message}`);
    return 2;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  }
}
