// How an intent task (a task judged by `tool_call`) is answered: through the decision path the runtime
// uses, chosen by the engine type, so what the evaluation measures is what would run.
//
//   mock                      the floor planner (src/intents/floor.ts) over the catalogue, its keywords
//                             extended by the skill (floor-skill.ts): deterministic, and the skill matters.
//   openai, anthropic         the catalogue as native tools plus the ask_clarification / refuse
//                             pseudo-tools (model-tools.ts), the skill in the system prompt (the engines
//                             put it there), the case's history as real earlier turns and the utterance
//                             as the last user turn — the same messages `whet intents` sends; the tool
//                             calls are read into a decision by model-tools' reader.
//   command, claude, codex    the `whetstone.intents/1` JSON request (command-engine.ts) plus a `skill`
//                             field (the SKILL.md text, or null) as the prompt; stdout (whole, or its last
//                             line) is the decision JSON. The skill travels only inside the JSON: it is not
//                             also prepended, which would break the request.
//
// The decision, as JSON, is the attempt's output, so it is kept in results/*.jsonl and the `tool_call`
// judge reads it from there. An answer that says nothing readable is an engine `parse` error, never a
// wrong decision.
import type { SuiteIntents } from '../config/suite-schema.js';
import type { Engine, EngineResult } from '../engines/types.js';
import type { SkillInput } from '../skill/read.js';
import { catalogEntries } from '../config/intent-catalog.js';
import { INTENT_PROTOCOL } from '../intents/command-engine.js';
import { parseDecision } from '../intents/decision.js';
import { planFloor } from '../intents/floor.js';
import { catalogWithSkill } from '../intents/floor-skill.js';
import { readToolReply, toolRequest } from '../intents/model-tools.js';
import type { Decision, IntentCase } from '../config/intent-types.js';

export interface IntentDecideInput {
  engine: Engine;
  intentCase: IntentCase;
  intents: SuiteIntents;
  skill?: SkillInput;
  timeoutMs: number;
  signal?: AbortSignal;
}

const TOOL_ENGINES = new Set(['openai', 'anthropic']);

export async function decideIntent(a: IntentDecideInput): Promise<EngineResult> {
  const c = a.intentCase;
  const entries = catalogEntries(a.intents.catalog);
  if (a.engine.type === 'mock') {
    const started = performance.now();
    const decision = planFloor({ utterance: c.utterance, context: c.context, catalog: catalogWithSkill(entries, a.skill?.text) });
    return { ok: true, output: JSON.stringify(decision), usage: { cost_usd: 0 }, duration_ms: Math.round(performance.now() - started) };
  }
  if (TOOL_ENGINES.has(a.engine.type)) {
    const { request, toolset } = toolRequest(entries, c.context, c.utterance);
    const res = await a.engine.run({ kind: 'task', ...request, skill: a.skill, taskId: c.id, timeoutMs: a.timeoutMs }, { signal: a.signal });
    if (!res.ok) return res;
    return withDecision(res, readToolReply(res, toolset), 'the model answered with neither a tool call nor text');
  }
  const request = { protocol: INTENT_PROTOCOL, id: c.id, utterance: c.utterance, context: c.context, catalog: entries, skill: a.skill?.text ?? null };
  const res = await a.engine.run({ kind: 'task', prompt: JSON.stringify(request), taskId: c.id, timeoutMs: a.timeoutMs }, { signal: a.signal });
  if (!res.ok) return res;
  const value = lastJson(res.output);
  const parsed = value === undefined ? undefined : parseDecision(value, 'json');
  if (parsed && !parsed.ok) return withDecision(res, undefined, parsed.message);
  return withDecision(res, parsed?.decision, `stdout is not a JSON decision: ${res.output.trim().replace(/\s+/g, ' ').slice(0, 200) || '(empty)'}`);
}

function withDecision(res: EngineResult, decision: Decision | undefined, why: string): EngineResult {
  if (!decision) return { ...res, ok: false, error: { kind: 'parse', message: why } };
  return { ...res, output: JSON.stringify(decision) };
}

/** The whole text as JSON, or else its last non-empty line (a program may log progress first). */
function lastJson(text: string): unknown {
  const whole = text.trim();
  try {
    return JSON.parse(whole);
  } catch {
    const last = whole.split('\n').map((l) => l.trim()).filter(Boolean).pop();
    try {
      return last === undefined ? undefined : JSON.parse(last);
    } catch {
      return undefined;
    }
  }
}
