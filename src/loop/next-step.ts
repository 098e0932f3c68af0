// What runs next in a loop run, decided from the artifacts alone: the newest artifact of the newest
// iteration says (next_step) who acts next. Nothing else — no memory of the previous process — is read,
// which is what makes any run resumable after any interruption.
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { readArtifact } from '../state/artifact-io.js';
import { iterationPaths } from './paths.js';
import { stageOfNextStep } from '../config/stage-names.js';
import { shardsIn } from './shards.js';
import { iterations, WRITTEN_BY, type Step } from './iterations.js';

export { iterations, newestArtifact, STEPS, type Step } from './iterations.js';

export type Next =
  | { kind: 'step'; step: Step; iteration: number; candidate?: string; retry?: { path: string; reason: string } }
  | { kind: 'end'; status: 'done' | 'aborted' | 'review'; iteration: number; reason: string };

const handoff = z.looseObject({ next_step: z.string(), next_owner: z.string(), verdict: z.string(), reason: z.string().optional(), selected: z.string().nullable().optional() });


export type Handoff = z.infer<typeof handoff>;

/** The handoff fields of an artifact, or the reason it cannot be read back. */
export function readHandoff(file: string, step: Step): Handoff | Error {
  try {
    return readArtifact(file, handoff, `${step} artifact`);
  } catch (err) {
    return err as Error;
  }
}

/**
 * Why a measurement stopped its calls early (src/evaluation/spend-guard.ts: the answer could no longer
 * change), if it did: such an evaluation is not a result but a pause for a fix, which resume retries.
 */
export function stoppedEarlyIn(h: Handoff): string | undefined {
  const e = (h as { evaluation?: { stopped_early?: { reason?: unknown }; baseline?: { stopped_early?: { reason?: unknown } }; candidate?: { stopped_early?: { reason?: unknown } } } }).evaluation;
  const r = e?.stopped_early?.reason ?? e?.baseline?.stopped_early?.reason ?? e?.candidate?.stopped_early?.reason;
  return typeof r === 'string' ? r : undefined;
}

/** What runs after the artifact `step` wrote in iteration `n` with handoff `h`. */
export function decideAfter(step: Step, h: Handoff, n: number, path?: string): Next {
  // A measurement that stopped early is measured again (its results log keeps what was judged): the step
  // that wrote it runs next, once the runner has moved the artifact to superseded/.
  const stopped = h.next_step === 'abort' && path && (step === 'baseline' || step === 'evaluate') ? stoppedEarlyIn(h) : undefined;
  if (stopped) {
    const candidate = (h as { candidate_id?: unknown }).candidate_id;
    return { kind: 'step', step, iteration: n, ...(typeof candidate === 'string' ? { candidate } : {}), retry: { path: path!, reason: stopped } };
  }
  if (step === 'learn' && h.next_step === 'generate') return { kind: 'step', step: 'baseline', iteration: n + 1 };
  if (h.next_step === 'done') return { kind: 'end', status: 'done', iteration: n, reason: h.reason ?? 'the learner stopped the loop' };
  if (h.next_step === 'abort') return { kind: 'end', status: 'aborted', iteration: n, reason: `${step}: ${h.reason ?? h.verdict}` };
  const next = stageOfNextStep(h.next_step);
  if (!next) return { kind: 'end', status: 'review', iteration: n, reason: `${step} handed over to ${h.next_owner} (${h.next_step})` };
  if (next === 'evaluate') {
    if (!h.selected) return { kind: 'step', step: 'learn', iteration: n };
    return { kind: 'step', step: next, iteration: n, candidate: h.selected };
  }
  return { kind: 'step', step: next, iteration: n };
}

/**
 * The next step from the newest VALID artifact of the newest iteration. Newer artifacts that cannot be
 * read back are listed in `invalid` (the runner moves them to superseded/ before going on); deciding from
 * them would strand the run, ignoring them silently would hide a damaged state directory.
 */
export function nextStep(runDir: string): Next & { invalid: { path: string; error: string }[] } {
  const its = iterations(runDir);
  const n = its[its.length - 1] ?? 1;
  const p = iterationPaths(runDir, n);
  const invalid: { path: string; error: string }[] = [];
  for (const w of [...WRITTEN_BY].reverse()) {
    if (!existsSync(p[w.file])) continue;
    const h = readHandoff(p[w.file], w.step);
    if (h instanceof Error) {
      invalid.push({ path: p[w.file], error: h.message });
      continue;
    }
    if (w.file === 'shardPlan') return { ...afterShardPlan(p, h, n), invalid };
    return { ...decideAfter(w.step, h, n, p[w.file]), invalid };
  }
  return { kind: 'step', step: 'baseline', iteration: n, invalid };
}

/** The evaluation went to shards: evaluate again (it merges) once all are in, else wait for them. */
function afterShardPlan(p: ReturnType<typeof iterationPaths>, h: Handoff, n: number): Next {
  const total = (h as { total?: number }).total ?? 0;
  const { present, missing } = shardsIn(p.shards, total);
  if (missing.length === 0 && h.selected) return { kind: 'step', step: 'evaluate', iteration: n, candidate: h.selected };
  const have = present.length ? `${present.map((i) => `${i}/${total}`).join(', ')} in` : 'none in yet';
  return { kind: 'end', status: 'review', iteration: n, reason: `evaluate handed over to shards: ${have}; missing ${missing.map((i) => `${i}/${total}`).join(', ')} (see ${p.shardPlan}); then whet resume` };
}
