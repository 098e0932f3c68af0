// `whet intents` end to end: load and cross-check the inputs, run the engine (and the --compare engine
// on the very same cases and catalogue), score, gate, and always write the dated report. Returns the
// result and the exit code; printing is the command's job. Exit codes: 0 every gate passed (or n/a);
// 1 a threshold of the primary engine was missed; 3 every case errored on an engine (nothing was
// measured). Bad input throws ConfigError / UsageError (exit 2) before anything runs.
import { redactDeep } from '../core/redact.js';
import { mkdirSync } from 'node:fs';
import { writeFileAtomicallySync } from '../core/atomic.js';
import { join, resolve } from 'node:path';
import { StateError, UsageError } from '../core/errors.js';
import { displayPath } from '../config/load-yaml.js';
import { checkCasesAgainstCatalog, loadCases } from '../config/intent-cases.js';
import { loadCatalog } from '../config/intent-catalog.js';
import { createIntentEngine } from './engine-spec.js';
import { canonicalKind, orderKinds } from './kinds.js';
import { scoreIntentRun } from './metrics.js';
import { renderReport } from './report-md.js';
import { runEngine } from './run-engine.js';
import { evaluateGates, loadThresholds } from './thresholds.js';
import type { CaseScore } from './score-case.js';
import type { Disagreement, EngineRun, IntentsResult } from './result.js';
export type { Disagreement, EngineRun, IntentsResult } from './result.js';

export interface IntentsOptions {
  cases: string;
  catalog: string;
  engine: string;
  compare?: string;
  /** Kinds to keep (any spelling); empty or absent: all. */
  kind?: string[];
  out?: string;
  thresholds?: string;
  timeoutMs?: number;
  concurrency?: number;
  retries?: number;
}

/** Cases decided at once when --concurrency is not given. */
const DEFAULT_CONCURRENCY = 4;

export interface IntentsDeps {
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  signal?: AbortSignal;
  warn: (line: string) => void;
}


/** YYYY-MM-DD in local time: the day the person running it sees. */
export function localDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/**
 * What a case's decision was, for spotting where two engines decided differently: the behaviour, and
 * for calls every step's capability and arguments (keys sorted, so key order is no difference). A
 * question's or a refusal's wording is not compared: two engines always phrase them differently.
 */
export function decisionKey(s: CaseScore): string {
  if (!s.decision) return 'error';
  const d = s.decision;
  if (d.behavior !== 'call') return d.behavior;
  return `call:${d.calls.map((c) => `${c.capability}${c.paramsError !== undefined ? '(unreadable)' : stableJson(c.params)}`).join(' → ')}`;
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export async function runIntents(opts: IntentsOptions, deps: IntentsDeps): Promise<IntentsResult> {
  const thresholds = loadThresholds(opts.thresholds, deps.cwd);
  const catalog = loadCatalog(opts.catalog, deps.cwd);
  const loaded = loadCases(resolve(deps.cwd, opts.cases), deps.cwd);
  const warnings = [...catalog.warnings, ...loaded.warnings, ...checkCasesAgainstCatalog(loaded, catalog)];
  for (const w of warnings) deps.warn(`warning: ${w}`);

  const filter = (opts.kind ?? []).flatMap((k) => k.split(',')).map((k) => k.trim()).filter(Boolean);
  if (opts.kind !== undefined && filter.length === 0) throw new UsageError('--kind needs at least one kind (e.g. --kind ambiguity,must_refuse)');
  const cases = filter.length === 0 ? loaded.cases : loaded.cases.filter((c) => filter.some((f) => canonicalKind(f) === canonicalKind(c.kind)));
  if (cases.length === 0) {
    const present = orderKinds(loaded.cases.map((c) => c.kind)).join(', ');
    throw new UsageError(`--kind ${filter.join(',')} matches no case; kinds in ${loaded.file}: ${present}`);
  }
  const engineDeps = { ...deps, maxRetries: opts.retries, concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY };
  const engines = [createIntentEngine(opts.engine, engineDeps)];
  if (opts.compare) engines.push(createIntentEngine(opts.compare, engineDeps));

  const runs: EngineRun[] = [];
  for (const engine of engines) {
    const caseRuns = await runEngine(engine, cases, catalog, {
      concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY,
      timeoutMs: opts.timeoutMs ?? 120_000,
      signal: deps.signal,
    });
    const { scores, metrics } = scoreIntentRun(cases, caseRuns, catalog);
    const gates = evaluateGates(metrics, thresholds);
    const usage = caseRuns.reduce((a, r) => ({ input_tokens: a.input_tokens + (r.usage?.input_tokens ?? 0), output_tokens: a.output_tokens + (r.usage?.output_tokens ?? 0) }), { input_tokens: 0, output_tokens: 0 });
    runs.push({
      engine: { spec: engine.spec, label: engine.label, identity: redactDeep(engine.identity()) },
      metrics,
      gates,
      passed: gates.every((g) => g.status !== 'fail'),
      all_errored: metrics.overall.errors === metrics.overall.cases,
      usage,
      scores,
    });
  }

  const disagreements: Disagreement[] = [];
  if (runs.length === 2) {
    cases.forEach((c, i) => {
      const a = runs[0]!.scores[i]!;
      const b = runs[1]!.scores[i]!;
      if (decisionKey(a) !== decisionKey(b)) disagreements.push({ id: c.id, kind: c.kind, scores: [a, b] });
    });
  }

  const kinds: Record<string, number> = {};
  for (const k of orderKinds(cases.map((c) => c.kind))) kinds[k] = cases.filter((c) => c.kind === k).length;
  const exit_code = runs.some((r) => r.all_errored) ? 3 : runs[0]!.passed ? 0 : 1;
  const date = localDate(deps.now());
  const result: IntentsResult = {
    schema: 'whetstone.intents/1',
    date,
    cases_file: loaded.file,
    cases_sha256: loaded.hash,
    catalog: catalog.source,
    catalog_sha256: catalog.hash,
    capabilities: catalog.capabilities.length,
    kind_filter: filter,
    kinds,
    thresholds,
    runs,
    disagreements,
    report: '',
    exit_code,
  };
  result.report = writeReport(resolve(deps.cwd, opts.out ?? '.'), date, renderReport(result), deps.cwd);
  return result;
}

/** Writes report-DATE.md, or report-DATE-2.md, -3, … when a record for that day exists: never overwrites one. */
function writeReport(dir: string, date: string, text: string, cwd: string): string {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new StateError(`cannot create the report folder ${displayPath(dir, cwd)}: ${(err as Error).message}`);
  }
  for (let n = 1; ; n++) {
    const path = join(dir, n === 1 ? `report-${date}.md` : `report-${date}-${n}.md`);
    try {
      writeFileAtomicallySync(path, text, { exclusive: true });
      return displayPath(path, cwd);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new StateError(`cannot write ${displayPath(path, cwd)}: ${(err as Error).message}`);
    }
  }
}
