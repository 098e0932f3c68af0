// `whet schemas [--out DIR]`: without --out, one JSON object (name → schema) on stdout; with --out, one
// `<name>.schema.json` per artifact in DIR (the schemas themselves: src/report/schemas.ts).
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { writeFileAtomically } from '../core/atomic.js';
import { ARTIFACT_SCHEMAS, jsonSchemaOf, jsonSchemas } from '../report/schemas.js';
import type { CliDeps, SetCode } from '../program/deps.js';

export function registerSchemasCommand(program: Command, deps: CliDeps, _setCode: SetCode): void {
  program
    .command('schemas')
    .description('JSON Schema of every artifact (run, evaluation, candidates, ranking, gate, learning, calibration, nightly, nightly history, feedback, report)')
    .option('--out <dir>', 'write <name>.schema.json files into this folder instead of printing')
    .action(async (o: { out?: string }) => {
      if (!o.out) {
        const all = jsonSchemas();
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
