// What a run spent, counted one way for every place that shows it: the evaluation summary, `whet
// status`, `whet show`, the reports, run.json and learning.json. A count is split by kind — the agent's
// own calls (engine), the judges' (the discriminator's model judge included) and the generator's — and
// the sum is what `budgets.max_engine_calls` caps, so the figures a person reads add up to the budget's.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import type { callCount } from '../state/call-count.js';

type Usage = { input_tokens?: number; output_tokens?: number; cost_usd?: number };

export interface RunUsage {
  /** Every call: engine + judge + generator. */
  calls: number;
  engine: number;
  judge: number;
  generator: number;
  cost: number;
  input_tokens: number;
  output_tokens: number;
}

/** One count of calls, as artifacts store it (its schema: call-count.ts). */
export type CallCount = z.infer<typeof callCount>;

export interface RunTotals {
  /** Every call of the run (engine, judge and generator): the sum `calls.total` splits; kept under this name for existing state directories. */
  engine_calls: number;
  calls: CallCount;
  cost_usd: number;
  input_tokens: number;
  output_tokens: number;
}

export function emptyUsage(): RunUsage {
  return { calls: 0, engine: 0, judge: 0, generator: 0, cost: 0, input_tokens: 0, output_tokens: 0 };
}

export function totalsOf(u: RunUsage): RunTotals {
  return {
    engine_calls: u.calls,
    calls: { engine: u.engine, judge: u.judge, generator: u.generator, total: u.calls },
    cost_usd: Math.round(u.cost * 1e6) / 1e6,
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
  };
}

/** A run's usage as `whet status` and run.json's summary show it (cost rounded to the micro-dollar). */
export function runTotals(runDir: string, logs?: LogSums): RunTotals {
  return totalsOf(usedInRun(runDir, logs));
}

/**
 * Where a results log's sum may be kept between calls (`whet status`: src/inspect/verified-memo.ts): the
 * sum `read` makes, or the one kept for the log as it is now.
 */
export interface LogSums {
  sum(file: string, read: () => RunUsage): RunUsage;
}

/**
 * What a run spent as the read models show it: a finished standalone run kept its totals in run.json
 * (reading 100,000 results lines for one line of output is what that summary avoids); a loop's, or a
 * summary written before the split was kept, are counted from the run's logs and artifacts.
 */
export function spentIn(runDir: string, manifest: { mode?: unknown; summary?: { totals?: unknown } } | undefined, logs?: LogSums): RunTotals {
  const kept = manifest?.mode !== 'loop' ? (manifest?.summary?.totals as RunTotals | undefined) : undefined;
  return kept?.calls ? kept : runTotals(runDir, logs);
}

/**
 * The one wording of a call count: "18 call(s): engine 9 · judge 6 · generator 3". A count written before
 * the split was kept (run.json or learning.json of an older run) says only its sum. (Here, not beside the
 * schema: status and show print it without loading zod.)
 */
export function callsText(c: CallCount | null | undefined, total?: number): string {
  if (!c) return `${total ?? 0} call(s) (engine, judge and generator; not split in this older run)`;
  return `${c.total} call(s): engine ${c.engine} · judge ${c.judge} · generator ${c.generator}`;
}

/** "18 call(s): engine 9 · judge 6 · generator 3; tokens 5553 in / 1944 out; $0.0123": what a run spent, in `show` and the reports. */
export function spentWords(s: { calls: CallCount | null | undefined; total: number; input_tokens: number; output_tokens: number; cost_usd: number }): string {
  return `${callsText(s.calls, s.total)}; tokens ${s.input_tokens} in / ${s.output_tokens} out${s.cost_usd ? `; $${s.cost_usd.toFixed(4)}` : ''}`;
}

/**
 * One results line's share of what a run spent: its calls (the task's and its judges'; a line written
 * before `judge_calls` was kept counts whole as engine calls) and the usage of the task and its judges.
 * usedInRun sums it over a run's logs; runVariant as it reads and writes a log.
 */
export function addLineUsage(u: RunUsage, line: { engine_calls?: number; judge_calls?: number; usage?: Usage; judge_usage?: Usage }): void {
  const all = line.engine_calls ?? 1;
  const judge = Math.min(all, line.judge_calls ?? 0);
  u.calls += all;
  u.judge += judge;
  u.engine += all - judge;
  for (const x of [line.usage, line.judge_usage]) {
    u.cost += x?.cost_usd ?? 0;
    u.input_tokens += x?.input_tokens ?? 0;
    u.output_tokens += x?.output_tokens ?? 0;
  }
}

function eachLine(file: string, use: (v: Record<string, unknown>) => void, only?: (line: string) => boolean): void {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || (only && !only(line))) continue;
    try {
      use(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a torn last line was not a finished call
    }
  }
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined; // unreadable artifacts are reported by the stages that read them
  }
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * Calls, cost and tokens already spent by a run: every line of its results files (task and judge calls;
 * superseded lines too: they were paid for), every generate artifact (the generator's calls), every
 * ranking's model judge, and what an interrupted generate or discriminate stage said it had spent.
 */
export function usedInRun(runDir: string, logs?: LogSums): RunUsage {
  const u = emptyUsage();
  // Each log summed on its own, kept or not, so a kept sum adds up exactly as a fresh one.
  const read = (file: string) => () => {
    const v = emptyUsage();
    eachLine(file, (l) => addLineUsage(v, l));
    return v;
  };
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      // A results log measured on other content was moved to superseded/ (runs.ts supersedeFile): paid for all the same.
      else if (e.name.endsWith('.jsonl') && e.name !== 'events.jsonl' && (dir.endsWith('results') || dir.endsWith('superseded'))) addUsage(u, logs ? logs.sum(p, read(p)) : read(p)());
      else if (e.name === 'events.jsonl' && dir === runDir) {
        // A stage the budget interrupted wrote no artifact; its event keeps what it spent outside the results logs.
        eachLine(
          p,
          (ev) => {
            if (ev.event !== 'interrupted') return;
            if (ev.stage === 'generate') add(u, 'generator', num(ev.engine_calls), num(ev.cost_usd));
            else if (ev.stage === 'discriminate') add(u, 'judge', num(ev.llm_judge_calls), num(ev.llm_judge_cost_usd));
          },
          (line) => line.includes('"interrupted"'),
        );
      } else if (e.name === 'candidates.json') {
        const c = readJson(p);
        if (c) add(u, 'generator', num(c.engine_calls), num(c.cost_usd));
      } else if (e.name === 'ranking.json') {
        // The minibatch's calls are in its results logs; the model judge's only here.
        const j = readJson(p)?.llm_judge as Record<string, unknown> | undefined;
        if (j) add(u, 'judge', num(j.engine_calls), num(j.cost_usd));
      }
    }
  };
  if (existsSync(runDir)) walk(runDir);
  return u;
}

function addUsage(u: RunUsage, v: RunUsage): void {
  for (const k of Object.keys(u) as (keyof RunUsage)[]) u[k] += v[k];
}

function add(u: RunUsage, kind: 'judge' | 'generator', calls: number, cost: number): void {
  u[kind] += calls;
  u.calls += calls;
  u.cost += cost;
}
