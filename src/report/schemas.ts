// JSON Schema for every artifact whetstone writes, generated from the zod schemas the stages validate
// with (zod 4's toJSONSchema), so another tool can read a state directory without whetstone and the
// published schemas can never drift from what is really written (`whet schemas`: src/commands/schemas.ts).
import { z } from 'zod';
import { evaluationArtifact } from '../artifacts/evaluation.js';
import { gateArtifact } from '../artifacts/gate.js';
import { candidatesArtifact } from '../artifacts/candidates.js';
import { rankingArtifact } from '../artifacts/ranking.js';
import { learningArtifact } from '../artifacts/learning.js';
import { calibrationRecordSchema } from '../judges/calibration-store.js';
import { loopManifest } from '../loop/manifest.js';
import { historyLine, nightlyDay, NIGHTLY_SCHEMA } from '../nightly/schema.js';
import { runManifest } from '../state/runs.js';
import { FEEDBACK_SCHEMA, feedbackItem } from '../artifacts/feedback.js';
import { reportModel, REPORT_SCHEMA } from './model-schema.js';

export interface ArtifactSchema {
  /** File name the schema is written to: `<name>.schema.json`. */
  name: string;
  /** The artifact's own `schema` value, or what it is. */
  title: string;
  /** Where such a file lives in a state directory. */
  file: string;
  schema: z.ZodType;
}

export const ARTIFACT_SCHEMAS: ArtifactSchema[] = [
  { name: 'run', title: 'whetstone.run/1', file: 'runs/<run>/run.json', schema: runManifest },
  { name: 'run-loop', title: 'whetstone.run/1 (mode loop)', file: 'runs/<run>/run.json', schema: loopManifest },
  { name: 'evaluation', title: 'whetstone.evaluation/1', file: 'runs/<run>/evaluation.json, runs/<run>/iter-NNN/{baseline,evaluation}.json', schema: evaluationArtifact },
  { name: 'candidates', title: 'whetstone.candidates/1', file: 'runs/<run>/iter-NNN/candidates.json', schema: candidatesArtifact },
  { name: 'ranking', title: 'whetstone.ranking/1', file: 'runs/<run>/iter-NNN/ranking.json', schema: rankingArtifact },
  { name: 'gate', title: 'whetstone.gate/1', file: 'runs/<run>/iter-NNN/gate.json', schema: gateArtifact },
  { name: 'learning', title: 'whetstone.learning/1', file: 'runs/<run>/iter-NNN/learning.json', schema: learningArtifact },
  { name: 'calibration', title: 'whetstone.calibration/1', file: 'calibrations/<sha256>.json', schema: calibrationRecordSchema },
  { name: 'nightly', title: NIGHTLY_SCHEMA, file: 'nightly/<date>.json', schema: nightlyDay },
  { name: 'nightly-history', title: 'whetstone nightly history line', file: 'nightly/history.jsonl (one JSON object per line)', schema: historyLine },
  { name: 'feedback', title: FEEDBACK_SCHEMA, file: 'memory/feedback.jsonl (one JSON object per line: a verdict given in whet view)', schema: feedbackItem },
  { name: 'report', title: REPORT_SCHEMA, file: 'output of whet report --format json', schema: reportModel },
];

/** The JSON Schema (draft 2020-12) of one artifact, titled and described with where it lives. */
export function jsonSchemaOf(a: ArtifactSchema): Record<string, unknown> {
  // io "output": the shape as written to disk (defaults applied), which is what a reader of the file sees.
  const js = z.toJSONSchema(a.schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...js, title: a.title, description: `whetstone ${a.file}` };
}

/** Every artifact's JSON Schema, by name: the object `whet schemas` prints. */
export function jsonSchemas(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(ARTIFACT_SCHEMAS.map((a) => [a.name, jsonSchemaOf(a)]));
}
