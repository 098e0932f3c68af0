// A project for the sharding tests: a suite of n tasks over four categories with llm-rubric, regex and
// contains judges, a command engine (sed) that echoes skill + prompt and fails on ERRTASK prompts, a mock
// judge engine, pass-k 2 and a held-out split. sed answers the same way every time, and the config says so
// (evaluate.deterministic): the shards and the unsharded run decide on the same single measurement.
import { join } from 'node:path';
import { write } from './cli.js';

export const SHARD_CATEGORIES = ['format', 'scope', 'safety', 'tone'];
const CATS = SHARD_CATEGORIES;

/** A suite whose outcomes depend on the skill (the engine echoes skill + prompt) and whose ERRTASK prompts make sed exit 1. */
export function shardSuite(n: number, withErrors = true): string {
  const lines = ['skill_id: shard-demo', 'version: "1.0"', 'tasks:'];
  for (let i = 0; i < n; i++) {
    const id = `t-${String(i).padStart(4, '0')}`;
    // The engine echoes skill + prompt; the skill says alpha and gamma, never delta, and no prompt says any.
    const word = i % 3 === 0 ? 'alpha' : i % 3 === 1 ? 'gamma' : 'delta';
    const err = withErrors && i % 37 === 5 ? ' ERRTASK' : '';
    lines.push(`  - id: ${id}`, `    prompt: "task ${i} of the ${CATS[i % CATS.length]} kind${err}"`, `    category: ${CATS[i % CATS.length]}`);
    if (i % 4 === 0) lines.push('    judges:', '      - type: llm-rubric', `        rubric: "${word} release notes"`);
    else if (i % 4 === 1) lines.push('    judges:', '      - type: regex', `        pattern: "${word.toUpperCase()}"`, '        flags: i');
    else lines.push('    judges:', '      - type: contains', `        expected: ["${word}"]`);
  }
  return `${lines.join('\n')}\n`;
}

export function shardProject(dir: string, opts: { suiteTasks?: number; engine?: string[]; errors?: boolean } = {}): void {
  write(join(dir, 'skill/SKILL.md'), '---\nname: shard-demo\ndescription: demo\n---\n# Demo\n\nAlways say alpha.\nRelease notes mention gamma.\n');
  write(join(dir, 'tasks.yaml'), shardSuite(opts.suiteTasks ?? 400, opts.errors ?? true));
  const engine = JSON.stringify(opts.engine ?? ['sed', '/ERRTASK/q1']);
  write(
    join(dir, 'pipeline.yaml'),
    `engine:\n  type: command\n  command: ${engine}\n  skill_delivery: prepend\njudge_engine:\n  type: mock\nevaluate:\n  pass_k: 2\n  concurrency: 4\n  deterministic: true\nloop:\n  holdout_ratio: 0.25\n`,
  );
}

// Shared with `npm run bench -- --shards N`, which checks the same fields.
export { measuredFields } from '../../scripts/measured-fields.js';
