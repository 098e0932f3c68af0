// The one entry point the evaluator uses. It routes a judge spec to its judge and turns anything
// unexpected into an `error` result, so one broken judge marks one task as an error instead of
// taking the whole run down — and never turns into a pass.
import type { JudgeSpec } from '../config/suite-schema.js';
import type { JudgeContext, JudgeResult } from './types.js';
import { judgeContains, judgeNotContains } from './contains.js';
import { judgeEquals } from './equals.js';
import { judgeJson } from './json.js';
import { judgeLlmRubric } from './llm-rubric.js';
import { judgePytest } from './pytest.js';
import { judgeRegex } from './regex.js';
import { errorResult } from './result.js';
import { judgeScript } from './script.js';
import { judgeToolCall } from './tool-call.js';

export type { JudgeContext, JudgeResult, Judge } from './types.js';
export { combineJudgeResults, type CombinedResult } from './result.js';
export { compileJudgeRegex, REGEX_MAX_INPUT } from './regex.js';
export { buildRubricPrompt, parseRubricReply, RUBRIC_SYSTEM, DEFAULT_PASS_THRESHOLD } from './llm-rubric.js';
export { resolveInsideSuite } from '../config/suite-files.js';
export { loadJudgeSpec, specHashHex, MAX_JUDGE_TEMPERATURE, type LoadedJudgeSpec, type JudgeSpecFile, type CalibrationThresholds, type Label } from './spec.js';
export { buildSpecPrompt, parseSpecReply, SPEC_JUDGE_SYSTEM } from './spec-prompt.js';
export { judgeWithSpec, specRequest, MOCK_SCORE_AS_PASS, type SpecVerdict, type SpecJudgeInput } from './spec-judge.js';

async function dispatch(spec: JudgeSpec, ctx: JudgeContext): Promise<JudgeResult> {
  switch (spec.type) {
    case 'contains':
      return judgeContains(spec, ctx.output);
    case 'not_contains':
      return judgeNotContains(spec, ctx.output);
    case 'regex':
      return judgeRegex(spec, ctx.output);
    case 'equals':
      return judgeEquals(spec, ctx.output);
    case 'json':
      return judgeJson(spec, ctx);
    case 'script':
      return judgeScript(spec, ctx);
    case 'pytest':
      return judgePytest(spec, ctx);
    case 'llm-rubric':
    case 'llm_rubric':
      return judgeLlmRubric(spec, ctx);
    case 'tool_call':
      return judgeToolCall(spec, ctx.output, ctx.intents);
    default: {
      // Reachable only with a spec that bypassed the loader; the compiler proves the list is complete.
      const rogue: never = spec;
      const type = (rogue as { type?: unknown }).type;
      return errorResult(String(type) as JudgeSpec['type'], `unknown judge type ${JSON.stringify(type)}`);
    }
  }
}

export async function runJudge(spec: JudgeSpec, ctx: JudgeContext): Promise<JudgeResult> {
  if (ctx.signal?.aborted) return errorResult(spec.type, 'aborted before judging');
  try {
    return await dispatch(spec, ctx);
  } catch (err) {
    return errorResult(spec.type, `judge crashed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
