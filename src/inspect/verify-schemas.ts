// The schema half of verifying a state directory (verify-run.ts): each kind of file against the zod schema
// its writer validates with. A module of its own, imported only when a check wants schemas, so that
// `whet status` and `whet show` of standalone runs still load no zod (test/integration/bundle.test.ts).
import type { z } from 'zod';
import { candidatesArtifact } from '../artifacts/candidates.js';
import { evaluationArtifact } from '../artifacts/evaluation.js';
import { gateArtifact } from '../artifacts/gate.js';
import { learningArtifact } from '../artifacts/learning.js';
import { rankingArtifact } from '../artifacts/ranking.js';
import { shardPlanArtifact } from '../artifacts/shard-plan.js';
import { formatPath } from '../config/locate.js';
import { headerSchema } from '../evaluation/cache.js';
import { loopManifest } from '../loop/manifest.js';
import { historyLineRead, nightlyDayRead } from '../nightly/schema.js';
import { locateJson } from '../state/artifact-io.js';
import { runEventSchema } from '../state/events.js';
import { backupManifest } from '../state/promote.js';
import { resultLineSchema } from '../state/results-log.js';
import { runManifest } from '../state/runs.js';

export type SchemaKind = 'run' | 'run-loop' | 'baseline' | 'candidates' | 'ranking' | 'shardPlan' | 'evaluation' | 'gate' | 'learning' | 'backup' | 'cache' | 'event' | 'result' | 'night' | 'history';

const SCHEMAS: Record<SchemaKind, z.ZodType> = {
  run: runManifest,
  'run-loop': loopManifest,
  baseline: evaluationArtifact,
  candidates: candidatesArtifact,
  ranking: rankingArtifact,
  shardPlan: shardPlanArtifact,
  evaluation: evaluationArtifact,
  gate: gateArtifact,
  learning: learningArtifact,
  backup: backupManifest,
  cache: headerSchema,
  event: runEventSchema,
  result: resultLineSchema,
  night: nightlyDayRead,
  history: historyLineRead,
};

/** What is wrong with `value` as a `kind` (its first issue, placed at `file:line:col` in `text`), or undefined. */
export function schemaProblem(kind: SchemaKind, value: unknown, text: string, file: string): { message: string; at?: string } | undefined {
  const r = SCHEMAS[kind].safeParse(value);
  if (r.success) return undefined;
  const issue = r.error.issues[0]!;
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  return { message: `${path.length ? `${formatPath(path)}: ` : ''}${issue.message}`, ...(text ? { at: locateJson(text, file, path) } : {}) };
}
