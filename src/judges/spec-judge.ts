// Running a judge spec on one output. Used by suites (`judge: {type: llm-rubric, spec: judges/x.yaml}`)
// and by `whet calibrate --answer-key`. The verdict is the reply's label; a reply that breaks the output
// contract gets one retry with the problem named, then the judge reports an error (never a verdict).
// The engine is given the output and, when known, its task — nothing else about the item, so a human
// label, an id or a category can never reach the judge (docs/method.md: Never).
// The spec's temperature (validated ≤ 0.2 at load, 0 when unset) goes into every request and overrides the
// engine's configured one: a judge engine shared with tasks may well run at 0.7, and a judge must repeat
// its judgements whatever engine it is pointed at.
import type { JudgeSpec } from '../config/suite-schema.js';
import { createEngine } from '../engines/index.js';
import type { Engine, EngineRequest, Usage } from '../engines/types.js';
import { extractJsonObject } from './json-text.js';
import { resolveInsideSuite } from '../config/suite-files.js';
import { addUsage, errorResult, hasUsage, oneLine } from './result.js';
import { loadJudgeSpec } from './spec.js';
import type { Label, LoadedJudgeSpec } from './spec-schema.js';
import { buildSpecPrompt, parseSpecReply, specRetryPrompt, SPEC_JUDGE_SYSTEM } from './spec-prompt.js';
import type { JudgeContext, JudgeResult } from './types.js';

/**
 * The offline mock grader answers `{score, reason}` (the share of the PASS definition's words present),
 * never a label; with the mock, and only with it, a score at or above this reads as PASS.
 */
export const MOCK_SCORE_AS_PASS = 0.5;

export interface SpecJudgeInput {
  output: string;
  task?: string;
  engine: Engine;
  timeoutMs: number;
  /** Names the call in logs and workspaces; callers must not put an item's label or id-derived hints here. */
  taskId?: string;
  signal?: AbortSignal;
}

export type SpecVerdict =
  | { ok: true; label: Label; reason: string; retried: boolean; usage: Usage }
  | { ok: false; error: string; usage: Usage };

export function specRequest(loaded: LoadedJudgeSpec, input: Pick<SpecJudgeInput, 'output' | 'task' | 'timeoutMs' | 'taskId'>): EngineRequest {
  const prompt = buildSpecPrompt(loaded.spec, { output: input.output, ...(input.task !== undefined ? { task: input.task } : {}) });
  const req: EngineRequest = {
    kind: 'judge',
    prompt,
    system: SPEC_JUDGE_SYSTEM,
    expectJson: true,
    // Real engines read only `prompt`; the mock grades the output against the PASS definition.
    grading: { rubric: loaded.spec.labels.PASS, output: input.output },
    timeoutMs: input.timeoutMs,
    temperature: loaded.spec.temperature,
  };
  if (input.taskId !== undefined) req.taskId = input.taskId;
  return req;
}

export async function judgeWithSpec(loaded: LoadedJudgeSpec, input: SpecJudgeInput): Promise<SpecVerdict> {
  const request = specRequest(loaded, input);
  const first = request.prompt;
  const opts = input.signal ? { signal: input.signal } : undefined;
  let usage: Usage = {};
  let problem = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    const result = await input.engine.run({ ...request }, opts);
    usage = addUsage(usage, result.usage);
    if (!result.ok) {
      const kind = result.error ? ` (${result.error.kind})` : '';
      return { ok: false, error: `judge engine failed${kind}: ${result.error?.message ?? 'no message'}`, usage };
    }
    const parsed = parseSpecReply(result.output);
    if (parsed.ok) return { ok: true, label: parsed.reply.label, reason: oneLine(parsed.reply.reason, 300), retried: attempt > 1, usage };
    const mock = input.engine.type === 'mock' ? mockVerdict(result.output) : undefined;
    if (mock) return { ok: true, ...mock, retried: false, usage };
    problem = parsed.problem;
    request.prompt = specRetryPrompt(first, result.output, problem);
  }
  return { ok: false, error: `judge reply invalid twice; last one: ${problem}`, usage };
}

function mockVerdict(output: string): { label: Label; reason: string } | undefined {
  const obj = extractJsonObject(output);
  const score = obj?.score;
  if (typeof score !== 'number' || !Number.isFinite(score)) return undefined;
  const label: Label = score >= MOCK_SCORE_AS_PASS ? 'PASS' : 'FAIL';
  const why = typeof obj?.reason === 'string' ? obj.reason : 'no reason';
  return { label, reason: oneLine(`${why} (mock score ${score} ${score >= MOCK_SCORE_AS_PASS ? '≥' : '<'} ${MOCK_SCORE_AS_PASS})`, 300) };
}

type RubricSpec = Extract<JudgeSpec, { type: 'llm-rubric' | 'llm_rubric' }>;
const specEngines = new Map<string, Engine>();

/**
 * Which engine answers a spec inside a suite run: a mock run stays on the mock (everything offline, as
 * asked); otherwise the spec's own engine when it names one, else the run's judge engine.
 */
function engineFor(loaded: LoadedJudgeSpec, ctx: JudgeContext): Engine | undefined {
  if (ctx.judgeEngine?.type === 'mock' || !loaded.spec.engine) return ctx.judgeEngine;
  const key = `${loaded.hash}\0${loaded.dir}`;
  let engine = specEngines.get(key);
  if (!engine) {
    engine = createEngine(loaded.spec.engine, { suiteDir: loaded.dir });
    if (specEngines.size > 32) specEngines.clear();
    specEngines.set(key, engine);
  }
  return ctx.meter ? ctx.meter(engine) : engine;
}

/** The llm-rubric judge when it points at a spec file (resolved next to the suite, never outside it). */
export async function judgeRubricSpecFile(spec: RubricSpec & { spec: string }, ctx: JudgeContext): Promise<JudgeResult> {
  const type = spec.type;
  const file = await resolveInsideSuite(ctx.suiteDir, spec.spec, 'judge spec');
  if (!file.ok) return errorResult(type, file.message);
  let loaded: LoadedJudgeSpec;
  try {
    loaded = loadJudgeSpec(file.path);
  } catch (err) {
    return errorResult(type, `judge spec ${spec.spec} is invalid: ${err instanceof Error ? err.message : String(err)}`);
  }
  const engine = engineFor(loaded, ctx);
  if (!engine) {
    return errorResult(type, `judge spec ${loaded.spec.name} needs an engine: set "engine" in the spec, judge_engine in pipeline.yaml, or pass --mock`);
  }
  const v = await judgeWithSpec(loaded, {
    output: ctx.output,
    task: ctx.task.prompt,
    engine,
    timeoutMs: ctx.timeoutMs,
    taskId: ctx.task.id,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  if (!v.ok) return errorResult(type, v.error, v.usage);
  const passed = v.label === 'PASS';
  const out: JudgeResult = {
    type,
    passed,
    score: passed ? 1 : 0,
    reason: `label ${v.label} (judge ${loaded.spec.name}): ${v.reason}${v.retried ? ' (after one invalid reply)' : ''}`,
  };
  if (hasUsage(v.usage)) out.usage = v.usage;
  return out;
}
