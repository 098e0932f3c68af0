// `whet schemas [--out DIR]`: JSON Schema for every artifact whetstone writes, generated from the zod
// schemas the stages validate with (zod 4's toJSONSchema), so another tool can read a state directory
// without whetstone and the published schemas can never drift from what is really written. Without --out,
// one JSON object (name → schema) on stdout; with --out, one `<name>.schema.json` per artifact in DIR.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { evaluationArtifact } from '../../stages/evaluate/schema.js';
import { gateArtifact } from '../../stages/gate/schema.js';
import { candidatesArtifact } from '../../stages/generate/schema.js';
import { rankingArtifact } from '../../stages/discriminate/schema.js';
import { learningArtifact } from '../../stages/learn/schema.js';
import { calibrationRecordSchema } from '../calibrate/store.js';
import type { CliDeps, SetCode } from '../commands/deps.js';
import { loopManifest } from '../loop/manifest.js';
import { historyLine, nightlyDay, NIGHTLY_SCHEMA } from '../nightly/schema.js';
import { writeFileAtomically } from '../state/atomic.js';
import { runManifest } from '../state/runs.js';
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
  { name: 'report', title: REPORT_SCHEMA, file: 'output of whet report --format json', schema: reportModel },
];

/** The JSON Schema (draft 2020-12) of one artifact, titled and described with where it lives. */
export function jsonSchemaOf(a: ArtifactSchema): Record<string, unknown> {
  // io "output": the shape as written to disk (defaults applied), which is what a reader of the file sees.
  const js = z.toJSONSchema(a.schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...js, title: a.title, description: `whetstone ${a.file}` };
}

export function registerSchemasCommand(program: Command, deps: CliDeps, _setCode: SetCode): void {
  program
    .command('schemas')
    .description('JSON Schema of every artifact (run, evaluation, candidates, ranking, gate, learning, calibration, nightly, nightly history, report)')
    .option('--out <dir>', 'write <name>.schema.json files into this folder instead of printing')
    .action(async (o: { out?: string }) => {
      if (!o.out) {
        const all = Object.fromEntries(ARTIFACT_SCHEMAS.map((a) => [a.name, jsonSchemaOf(a)]));
        deps.stdout(`${JSON.stringify(all, null, 2)}\n`);
        return;
      }
      const dir = resolve(deps.cwd, o.out);
      mkdirSync(dir, { recursive: true });
      for (const a of ARTIFACT_SCHEMAS) {
        const file = join(dir, `${a.name}.schema.json`);
        await writeFileAtomically(file, `${JSON.stringify(jsonSchemaOf(a), null, 2)}\n`);
        deps.stdout(`${file}\n`);
      }
    });
}
