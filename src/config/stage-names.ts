// Each stage's one name and everything spelled after it, in one table (issue 32): the name is what the
// code, the CLI (`whet generate`), the stage programs (`dist/stages/generate/main.js`), pipeline.yaml's
// `stages:` and the docs use. The other spellings are values stored in state directories and read by
// external stage programs (docs/external-stages.md), so they keep their spelling: an artifact's `stage`
// says what state it records ("generated"), its `next_step` which stage acts next (the seed's protocol
// calls the gate "gate_decision"), its `next_owner` who. Nothing else spells these out: envelope.ts,
// next-step.ts and iterations.ts derive theirs from here. No zod here: the read models list runs without it.

export const STAGE_NAMES = {
  generate: { file: 'candidates.json', stage: 'generated', next_step: 'generate', owner: 'generator', schema: 'whetstone.candidates/1' },
  discriminate: { file: 'ranking.json', stage: 'ranked', next_step: 'discriminate', owner: 'discriminator', schema: 'whetstone.ranking/1' },
  evaluate: { file: 'evaluation.json', stage: 'evaluated', next_step: 'evaluate', owner: 'evaluator', schema: 'whetstone.evaluation/1' },
  gate: { file: 'gate.json', stage: 'gated', next_step: 'gate_decision', owner: 'gate', schema: 'whetstone.gate/1' },
  learn: { file: 'learning.json', stage: 'learned', next_step: 'learn', owner: 'learner', schema: 'whetstone.learning/1' },
} as const;

export type LoopStage = keyof typeof STAGE_NAMES;
/** The stages in the order a loop iteration runs them (after its baseline). */
export const LOOP_STAGES = ['generate', 'discriminate', 'evaluate', 'gate', 'learn'] as const satisfies readonly LoopStage[];

/** An artifact's `stage` value, per stage: what the envelope's zod enum accepts. */
export const ARTIFACT_STAGES = ['generated', 'ranked', 'evaluated', 'gated', 'learned'] as const satisfies readonly (typeof STAGE_NAMES)[LoopStage]['stage'][];

/** The stage a handoff's `next_step` names, or undefined for an end ("done", "abort") or another owner's step. */
export function stageOfNextStep(nextStep: string): LoopStage | undefined {
  for (const s of LOOP_STAGES) if (STAGE_NAMES[s].next_step === nextStep) return s;
  return undefined;
}
