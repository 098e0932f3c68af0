// run.json of an improvement-loop run: what is improved, against which suite, on which engine, and the
// thresholds registered before any result existed (with their hash).
import { z } from 'zod';
import { MAX_ITERATION } from '../config/safe-id.js';
import { runManifest } from '../state/runs.js';
import { registeredSettingsSchema } from '../config/registered.js';

export const loopManifest = runManifest.extend({
  mode: z.literal('loop'),
  target: z.object({ skill_path: z.string(), skill_dir: z.string(), sha256: z.string() }),
  suite: z.object({ path: z.string(), sha256: z.string() }),
  config: z.object({ path: z.string().nullable(), sha256: z.string() }),
  thresholds: z.record(z.string(), z.unknown()),
  thresholds_sha256: z.string(),
  /** The other decision-relevant settings and each task's split (src/config/registered.ts); absent in runs
   * started before they were registered, which are then checked on their thresholds only. */
  settings: registeredSettingsSchema.optional(),
  settings_sha256: z.string().optional(),
  /** Settings given as flags when the run started (`whet run --eval-threshold`): they were registered in
   * place of pipeline.yaml's, so they stand in for pipeline.yaml's values for the rest of the run. */
  flags: z.object({ eval_threshold: z.number().optional() }).optional(),
  mock: z.boolean(),
  /**
   * A run whose task or generator engine is the mock (issue 41): where its keeps go — a copy in
   * state/mock-copies/, or the author's skill when asked (`asked_by`: --apply or loop.mock_keeps) — the
   * author's skill folder, and which engine made it a mock run. Absent on a run on models, and in runs started before it was recorded.
   */
  mock_keeps: z.object({ applied_to: z.enum(['copy', 'skill']), skill_dir: z.string(), because: z.string(), asked_by: z.string().optional() }).optional(),
  /** The iteration the run is in (the newest iter-NNN folder). */
  iteration: z.number().int().min(1).max(MAX_ITERATION),
});
export type LoopManifest = z.infer<typeof loopManifest>;
