// Engine settings that load but are very likely a mistake: said once, before the run, instead of being
// found out after every task failed the same way. Pure; stages print them (`whet: warning: …`) and
// `whet doctor` lists them.
import type { EngineConfig } from './engine-schema.js';

/** What is probably wrong with `cfg`, each line naming the field (`where` is its path in pipeline.yaml). */
export function engineWarnings(cfg: EngineConfig, where = 'engine'): string[] {
  const out: string[] = [];
  if (cfg.type === 'claude' && cfg.mode === 'installed' && cfg.max_turns === 1) {
    // Invoking the skill is a turn of its own (the Skill tool_use and its result), so one turn ends the
    // run before any answer: every task would stop with error_max_turns.
    out.push(`${where}.max_turns: 1 with mode: installed leaves no turn for the answer (invoking the skill takes one); use max_turns: 2 or more`);
  }
  if (cfg.type === 'claude' && cfg.user_setup === true && cfg.setting_sources) {
    // setting_sources is passed as written, so the switch changes nothing for claude.
    out.push(`${where}.user_setup: true has no effect while setting_sources is set (${cfg.setting_sources.join(', ')} is what loads); drop one of them`);
  }
  if (cfg.type === 'openai' && cfg.max_tokens_param === 'max_tokens' && isOpenAIReasoningModel(cfg.model) && isOpenAIItself(cfg.base_url)) {
    out.push(`${where}.max_tokens_param: max_tokens with model ${cfg.model}: OpenAI's reasoning models reject max_tokens ("Use 'max_completion_tokens' instead"); leave max_tokens_param out or set max_completion_tokens`);
  }
  return out;
}

/** OpenAI's reasoning models (o1, o3, o4-mini, gpt-5…), which take max_completion_tokens only. */
export function isOpenAIReasoningModel(model: string): boolean {
  return /^(o\d+|gpt-5)([-.]|$)/i.test(model.replace(/^openai\//, ''));
}

/** The OpenAI API itself (no base_url, or api.openai.com): compatible servers mostly take max_tokens. */
export function isOpenAIItself(baseUrl: string | undefined): boolean {
  if (baseUrl === undefined) return true;
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}
