// Every engine call of a run — task, judge, generator — goes through meterEngine, so budgets count all
// of them and an HTTP engine's adaptive limiter is held for all of them: a 429 from a judge or generator
// call would otherwise cut a limit that nothing waits on. configureEngine applies what an engine's config
// says about calls (its own timeout for judge/generator calls, a price for CLIs that report only tokens).
import type { EngineConfig, PriceTable } from '../config/engine-schema.js';
import type { Engine, EngineRequest, EngineResult, Usage } from '../engines/types.js';
import type { Budget } from './budget.js';

export interface MeterOptions {
  budget?: Budget;
  /** Calls the caller already reserved in the budget (a task attempt reserves its first call up front). */
  prepaid?: number;
}

export interface MeteredEngine extends Engine {
  /** Calls this wrapper let through to the engine. */
  calls(): number;
  /** Summed usage of those calls. */
  usage(): Usage;
  /** Why a subscription rate limit stopped one of its calls, if one did (the attempt is then no result). */
  rateLimited(): string | undefined;
  /** What to fix when one of its calls found the endpoint unusable (EngineError.stop): the run stops. */
  unusable(): string | undefined;
}

/**
 * Engines whose endpoint turned out unusable in this run (a refused key, a wrong URL: src/engines/
 * unusable.ts): every further call to them is refused here without a request, so a run with 64 calls in
 * flight stops after those, not after every task has met the same 401.
 */
const deadEngines = new WeakMap<Engine, string>();

const refusals = new WeakSet<EngineResult>();

/** Whether a result means a subscription rate limit stopped the run (no result to record; resume redoes it). */
export function stoppedByRateLimit(res: EngineResult): boolean {
  return res.error?.kind === 'rate_limited';
}

/** Whether a result is the wrapper refusing a call because the budget is spent (no call was made). */
export function refusedByBudget(res: EngineResult): boolean {
  return refusals.has(res);
}

export function addUsage(a: Usage, b: Usage): Usage {
  const out: Usage = { ...a };
  if (b.input_tokens !== undefined) out.input_tokens = (out.input_tokens ?? 0) + b.input_tokens;
  if (b.output_tokens !== undefined) out.output_tokens = (out.output_tokens ?? 0) + b.output_tokens;
  if (b.cost_usd !== undefined) out.cost_usd = (out.cost_usd ?? 0) + b.cost_usd;
  return out;
}

export function meterEngine(engine: Engine, m: MeterOptions = {}): MeteredEngine {
  let calls = 0;
  let prepaid = m.prepaid ?? 0;
  let usage: Usage = {};
  let limited: string | undefined;
  let dead: string | undefined;
  const run = async (req: EngineRequest, opts?: { signal?: AbortSignal }): Promise<EngineResult> => {
    const known = deadEngines.get(engine);
    if (known) {
      dead ??= known;
      return { ok: false, output: '', usage: {}, duration_ms: 0, error: { kind: 'http', message: known, stop: known } };
    }
    const reserved = prepaid > 0;
    if (reserved) prepaid--;
    else if (m.budget && !m.budget.tryStart()) {
      const res: EngineResult = { ok: false, output: '', usage: {}, duration_ms: 0, error: { kind: 'aborted', message: `budget exhausted (${m.budget.exhausted})` } };
      refusals.add(res);
      return res;
    }
    // A paused subscription limit holds new calls here; a stopped one refuses them (engines/subscription-limit.ts).
    const refused = engine.rateLimitGate ? await engine.rateLimitGate.ready(opts?.signal) : undefined;
    if (refused) {
      if (!reserved) m.budget?.unstart();
      // Ctrl-C during a pause is an interruption like any other, not a rate-limit stop.
      if (!opts?.signal?.aborted) limited ??= refused;
      return { ok: false, output: '', usage: {}, duration_ms: 0, error: { kind: opts?.signal?.aborted ? 'aborted' : 'rate_limited', message: refused } };
    }
    let release: (() => void) | undefined;
    try {
      release = engine.concurrency ? await engine.concurrency.acquire(opts?.signal) : undefined;
    } catch {
      // Aborted while queued for a slot: the call was never made, so it costs nothing.
      if (!reserved) m.budget?.unstart();
      return { ok: false, output: '', usage: {}, duration_ms: 0, error: { kind: 'aborted', message: 'aborted while waiting for a concurrency slot' } };
    }
    calls++;
    try {
      const res = await engine.run(req, opts);
      if (stoppedByRateLimit(res)) limited ??= res.error?.message;
      if (res.error?.stop) {
        deadEngines.set(engine, res.error.stop);
        dead ??= res.error.stop;
      }
      usage = addUsage(usage, res.usage);
      m.budget?.record(res.usage.cost_usd, res.ok ? engine.type : undefined);
      return res;
    } finally {
      release?.();
    }
  };
  // The slot is taken (and the rate-limit gate waited on) here; exposing `concurrency` or `rateLimitGate`
  // would invite a caller to do it a second time.
  return { type: engine.type, identity: () => engine.identity(), run, calls: () => calls, usage: () => usage, rateLimited: () => limited, unusable: () => dead };
}

/** The concurrency a variant ran at, as its summary and artifact state it. */
export interface ConcurrencyUsed {
  /** `--concurrency` (or evaluate.concurrency). */
  requested: number;
  /** The most calls that could be in flight at once. */
  effective: number;
  /** What held it below the request: a max_concurrency the config writes; null when nothing did. */
  capped_by: string | null;
  /** The lowest limit 429s drove the adaptive concurrency to (null: never lowered). */
  adaptive_lowest: number | null;
}

/** The concurrency an evaluation can reach with these engines' adaptive ceilings, and what capped it. */
export function concurrencyUsed(requested: number, engines: { engine: Engine; as: string }[]): ConcurrencyUsed {
  let effective = requested;
  let capped: string | null = null;
  let lowest: number | null = null;
  for (const { engine, as } of engines) {
    const c = engine.concurrency;
    if (!c) continue;
    if (c.max < effective) {
      effective = c.max;
      capped = `${as}.max_concurrency`;
    }
    const s = c.stats?.();
    if (s && s.decreases > 0) lowest = Math.min(lowest ?? s.minLimit, s.minLimit);
  }
  return { requested, effective, capped_by: capped, adaptive_lowest: lowest };
}

/** Cost from a price table, for engines that report tokens but no cost. */
export function priceUsage(u: Usage, price: PriceTable | undefined): Usage {
  if (!price || u.cost_usd !== undefined || (u.input_tokens === undefined && u.output_tokens === undefined)) return u;
  const cost = ((u.input_tokens ?? 0) * price.input_per_mtok + (u.output_tokens ?? 0) * price.output_per_mtok) / 1e6;
  return { ...u, cost_usd: Math.round(cost * 1e8) / 1e8 };
}

/** An engine's configured timeout (`timeout_seconds`) in ms, when it has one. */
export function engineTimeoutMs(cfg: EngineConfig | undefined): number | undefined {
  return cfg && 'timeout_seconds' in cfg && cfg.timeout_seconds !== undefined ? Math.round(cfg.timeout_seconds * 1000) : undefined;
}

/**
 * Applies the config's per-call settings the engine itself does not: claude/codex `price` (the HTTP
 * engines price their own calls), and — with `overrideTimeout` (judge and generator engines, whose calls
 * carry the task's limit) — the engine's `timeout_seconds`.
 */
export function configureEngine<E extends Engine>(engine: E, cfg: EngineConfig, o: { overrideTimeout?: boolean } = {}): E {
  const price = cfg.type === 'claude' || cfg.type === 'codex' ? cfg.price : undefined;
  const timeoutMs = o.overrideTimeout ? engineTimeoutMs(cfg) : undefined;
  if (!price && timeoutMs === undefined) return engine;
  const inner = engine.run.bind(engine);
  return Object.assign(Object.create(engine) as E, {
    run: async (req: EngineRequest, opts?: { signal?: AbortSignal }) => {
      const res = await inner(timeoutMs === undefined ? req : { ...req, timeoutMs }, opts);
      return price ? { ...res, usage: priceUsage(res.usage, price) } : res;
    },
  });
}
