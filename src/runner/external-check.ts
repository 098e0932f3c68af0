// Whether what an external stage program wrote honours the contract, decided before anything is placed:
// the artifact's schema (the zod schema `whet schemas` exports as JSON Schema, so the two never differ),
// the envelope (this run, this iteration, a handoff that stage may make, the sha256 of what it read),
// and for a generator, that each candidate's edit actions really give the content it claims and copy no
// train judge's mechanics. A refusal names the program, the file (file:line:col) and the field.
import type { z } from 'zod';
import { HANDOFF, HANDOFF_END } from '../artifacts/envelope.js';
import { locateJson, sha256 } from '../state/artifact-io.js';
import { formatPath } from '../config/load-yaml.js';
import { programName, type ExternalStageName, type ExternalStageProgram } from '../config/external-stages.js';
import { ConfigError } from '../core/errors.js';
import type { LoopContext } from '../loop/context.js';
import { diffStats } from '../skill/diff.js';
import { applyEdits } from '../skill/edits.js';
import { rankingArtifact } from '../artifacts/ranking.js';
import { pipelineEvaluation } from '../artifacts/evaluation.js';
import { gateArtifact } from '../artifacts/gate.js';
import { copiedMechanics, judgeMechanics, writtenText } from '../loop/mechanics.js';
import { candidatesArtifact, type CandidatesArtifact } from '../artifacts/candidates.js';
import { learningArtifact } from '../artifacts/learning.js';
import { STAGE_OUTPUT, type StageInputs } from './external-inputs.js';

/** A stage program's artifact broke the contract: bad input (exit 2), and the run is left as it was. */
export class ExternalStageRefusal extends ConfigError {
  override name = 'ExternalStageRefusal';
}

const SCHEMAS: Record<ExternalStageName, z.ZodType> = {
  generate: candidatesArtifact,
  discriminate: rankingArtifact,
  evaluate: pipelineEvaluation,
  gate: gateArtifact,
  learn: learningArtifact,
};

/** The handoffs (next_step, next_owner) a stage of each kind may make; the runner continues from it. */
const HANDOFFS: Record<ExternalStageName, { next_step: string; next_owner: string }[]> = {
  generate: [HANDOFF.generated, HANDOFF_END.abort],
  discriminate: [HANDOFF.ranked, HANDOFF_END.abort],
  evaluate: [HANDOFF.evaluated, HANDOFF_END.abort],
  gate: [HANDOFF.gated, HANDOFF_END.abort],
  learn: [HANDOFF.learned, HANDOFF_END.done, HANDOFF_END.abort],
};

export interface Checked {
  value: Record<string, unknown> & { verdict: string; next_step: string; next_owner: string };
  /** For a generator: each candidate's variant SKILL.md, by id. */
  variants: { id: string; text: string }[];
}

/** Parses and checks `text` (read from `file`); an ExternalStageRefusal on the first problem. */
export function checkStageArtifact(ctx: LoopContext, program: ExternalStageProgram, file: string, text: string, io: StageInputs, candidate?: string): Checked {
  const stage = program.stage;
  const out = STAGE_OUTPUT[stage];
  const who = `stage program ${programName(program)} (stages.${stage}.command)`;
  const refuse = (path: (string | number)[], message: string): never => {
    throw new ExternalStageRefusal(`${who} wrote an invalid ${out.file}: ${message}`, locateJson(text, file, path), path.length ? formatPath(path) : undefined);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ExternalStageRefusal(`${who} wrote ${out.file} that is not valid JSON: ${(err as Error).message}`, `${file}:1:1`);
  }
  const parsed = SCHEMAS[stage].safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    refuse(issue.path.filter((p): p is string | number => typeof p !== 'symbol'), `${issue.message} (schema ${out.schema}: whet schemas)`);
  }
  const value = parsed.data as Checked['value'];
  if (value.run_id !== ctx.runId) refuse(['run_id'], `is ${JSON.stringify(value.run_id)}, this run is ${JSON.stringify(ctx.runId)} (WHET_RUN_ID)`);
  if (value.iteration !== ctx.iteration) refuse(['iteration'], `is ${JSON.stringify(value.iteration)}, this iteration is ${ctx.iteration} (WHET_ITERATION)`);
  const allowed = HANDOFFS[stage];
  if (!allowed.some((h) => h.next_step === value.next_step && h.next_owner === value.next_owner)) {
    refuse(['next_step'], `${JSON.stringify(value.next_step)} / next_owner ${JSON.stringify(value.next_owner)} is no handoff a ${stage} stage makes; one of ${allowed.map((h) => `${h.next_step}/${h.next_owner}`).join(', ')}`);
  }
  const inputs = value.inputs as Record<string, string>;
  for (const [name, input] of Object.entries(io.inputs)) {
    if (!input.required && inputs[name] === undefined) continue;
    if (inputs[name] !== input.sha256) {
      refuse(['inputs', name], `${inputs[name] === undefined ? 'is missing' : `is ${inputs[name]}`}; the ${name} it was given has ${input.sha256} (WHET_INPUTS)`);
    }
  }
  if (stage === 'discriminate') checkSelection(value, refuse);
  if (stage === 'evaluate' && candidate && value.candidate_id !== candidate) refuse(['candidate_id'], `is ${JSON.stringify(value.candidate_id)}, the ranking selected ${JSON.stringify(candidate)} (WHET_CANDIDATE)`);
  // The gate's keep applies the candidate to the user's skill; only the built-in gate's checks may do that.
  if (stage === 'gate' && value.decision === 'keep') refuse(['decision'], 'an external gate may not keep (apply) a candidate: decide pending_review and apply it with whet review approve, which runs the integrity checks');
  const variants = stage === 'generate' ? checkCandidates(ctx, value as unknown as CandidatesArtifact, io, refuse) : [];
  return { value, variants };
}

type Refuse = (path: (string | number)[], message: string) => never;

function checkSelection(value: Record<string, unknown>, refuse: Refuse): void {
  const ids = new Set(((value.scored_candidates ?? []) as { id: string }[]).map((c) => c.id));
  if (typeof value.selected === 'string' && !ids.has(value.selected)) refuse(['selected'], `"${value.selected}" is none of its scored_candidates`);
}

/** Each candidate's edits applied to the target: the text the runner materialises as its variant. */
function checkCandidates(ctx: LoopContext, a: CandidatesArtifact, io: StageInputs, refuse: Refuse): { id: string; text: string }[] {
  if (a.target.sha256 !== io.targetSha256) refuse(['target', 'sha256'], `is ${a.target.sha256}; the target has ${io.targetSha256} (WHET_TARGET_SHA256)`);
  const mechanics = judgeMechanics(io.tasks);
  const seen = new Set<string>();
  return a.candidates.map((c, i) => {
    const at = (...p: (string | number)[]) => ['candidates', i, ...p];
    if (seen.has(c.id)) refuse(at('id'), `"${c.id}" is used by an earlier candidate; ids are unique`);
    seen.add(c.id);
    if (c.variant_path !== `variants/${c.id}`) refuse(at('variant_path'), `is "${c.variant_path}"; the runner materialises the variant at "variants/${c.id}"`);
    let text = '';
    try {
      text = applyEdits(io.targetText, c.actions);
    } catch (err) {
      refuse(at('actions'), `cannot be applied to the target: ${(err as Error).message}`);
    }
    if (text === io.targetText) refuse(at('actions'), 'leave the target unchanged');
    const copied = copiedMechanics(`${c.title}\n${writtenText(c.actions)}`, mechanics);
    if (copied.length) refuse(at('actions'), `copy the judges' mechanics into the skill (${copied.join('; ')}): a proposal must be guidance for the kind of request, not the test`);
    if (c.content_sha256 !== sha256(text)) refuse(at('content_sha256'), `is ${c.content_sha256}; its actions applied to the target give ${sha256(text)}`);
    const stats = diffStats(io.targetText, text);
    if (c.diff_stats.added !== stats.added || c.diff_stats.removed !== stats.removed) {
      refuse(at('diff_stats'), `is +${c.diff_stats.added} −${c.diff_stats.removed}; its actions change +${stats.added} −${stats.removed} lines`);
    }
    return { id: c.id, text };
  });
}
