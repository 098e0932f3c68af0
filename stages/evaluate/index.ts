// The evaluate stage: run(ctx) picks the mode, measures, writes evaluation.json and says who acts next.
// Exit codes follow docs/reference/cli.md "Exit codes": 0 pass/skipped, 1 a threshold failed (fail, or an unusable baseline),
// 3 nothing (or too little of the suite) could be judged because the engine or judges failed, 130 interrupted.
import { formatEvaluation } from '../../src/measure/print.js';
import { runStandalone } from '../../src/measure/standalone.js';
import type { EvaluateContext, MeasureRequest, StageResult } from '../../src/measure/setup.js';

export type { EvaluateContext, MeasureRequest, StageResult } from '../../src/measure/setup.js';

export async function run(ctx: EvaluateContext, req: MeasureRequest): Promise<StageResult> {
  if (req.mode === 'standalone') return runStandalone(ctx, req);
  // Loaded only for a candidate: a stand-alone evaluation starts without its rounds, gate checks and p-limit.
  return (await import('./pipeline.js')).runPipeline(ctx, req);
}

export function exitCodeOf(r: StageResult): number {
  if (r.interrupted) return r.budgetExhausted || r.rateLimited ? 1 : 130;
  const a = r.artifact;
  if (a.verdict === 'pass' || a.verdict === 'skipped') return 0;
  // Nothing judged, or too much of the suite errored (evaluate.max_error_share): the engine or judges failed.
  if (a.verdict === 'error' && /could be judged|exceed the maximum error share|stopped early/.test(a.reason ?? '')) return 3;
  return 1;
}

export function summarize(r: StageResult): string {
  if (r.interrupted && r.budgetExhausted) return `budget exhausted (${r.budgetExhausted}); raise it in pipeline.yaml and run the same command again to resume (${r.runDir})`;
  if (r.interrupted && r.rateLimited) return `stopped: ${r.rateLimited}; run the same command again to resume once it resets (${r.runDir})`;
  if (r.interrupted) return `interrupted; run the same command again to resume (${r.runDir})`;
  return formatEvaluation(r.artifact, r.artifactPath);
}
