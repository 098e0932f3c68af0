// Registers `whet intents` on the commander program (wired in by src/cli.ts, like `evaluate`).
//
//   whet intents --cases intent-cases.jsonl --catalog capabilities/ --engine ENGINE
//   whet intents ... --compare OTHER_ENGINE
//   whet intents ... --kind ambiguity --json
//
// stdout: the console summary, or with --json the whole result (metrics, gates, every case's score).
// Warnings go to stderr. The dated report is written in every case (--out, default the cwd).
import { Command, InvalidArgumentError } from 'commander';
import type { CliDeps } from '../program/deps.js';
import { ENGINE_SPEC_HELP } from '../intents/engine-spec.js';
import { runIntents } from '../intents/run-intents.js';
import { summarizeIntents } from '../intents/summary.js';

const positiveInt = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${name} must be a whole number ≥ 1`);
  return Number(v);
};
const wholeInt = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a whole number`);
  return Number(v);
};
const seconds = (v: string) => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('--timeout must be a number of seconds > 0');
  return n;
};
const collect = (v: string, prev: string[] = []) => [...prev, v];

export function registerIntentsCommand(program: Command, deps: CliDeps, setCode: (c: number) => void): void {
  program
    .command('intents')
    .description('intent evals for tool-using agents: capability selection, parameters, clarify and refuse (docs/method.md: Intent evals)')
    .requiredOption('--cases <file>', 'intent cases, JSONL (one case a line)')
    .requiredOption('--catalog <path>', 'capability catalogue: a YAML/JSON file or a folder of them')
    .requiredOption('--engine <spec>', `who decides: ${ENGINE_SPEC_HELP}`)
    .option('--compare <spec>', 'run the same cases on a second engine and show both side by side')
    .option('--kind <kinds>', 'only these kinds (comma-separated, repeatable)', collect)
    .option('--thresholds <file>', 'YAML/JSON thresholds (default: the seed’s)')
    .option('--out <dir>', 'where report-YYYY-MM-DD.md is written (default: current directory)')
    .option('--timeout <seconds>', 'time limit per case (default 120)', seconds)
    .option('--concurrency <n>', 'cases decided at once (default 4)', positiveInt('--concurrency'))
    .option('--retries <n>', 'HTTP retries for model engines (default 2)', wholeInt('--retries'))
    .option('--json', 'print the result as JSON instead of the summary')
    .action(async (opts: Record<string, unknown>) => {
      const result = await runIntents(
        {
          cases: String(opts.cases),
          catalog: String(opts.catalog),
          engine: String(opts.engine),
          compare: typeof opts.compare === 'string' ? opts.compare : undefined,
          kind: Array.isArray(opts.kind) ? (opts.kind as string[]) : undefined,
          out: typeof opts.out === 'string' ? opts.out : undefined,
          thresholds: typeof opts.thresholds === 'string' ? opts.thresholds : undefined,
          timeoutMs: typeof opts.timeout === 'number' ? Math.round(opts.timeout * 1000) : undefined,
          concurrency: typeof opts.concurrency === 'number' ? opts.concurrency : undefined,
          retries: typeof opts.retries === 'number' ? opts.retries : undefined,
        },
        { cwd: deps.cwd, env: deps.env, now: deps.now, signal: deps.signal, warn: (line) => deps.stderr(`${line}\n`) },
      );
      deps.stdout(opts.json ? `${JSON.stringify(result, null, 2)}\n` : `${summarizeIntents(result)}\n`);
      setCode(result.exit_code);
    });
}
