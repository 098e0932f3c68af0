import { describe, expect, it } from 'vitest';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJson, snapshotTree, tempDir, whet, write } from '../support/cli.js';

// What a pipeline-mode evaluation leaves behind: a run that the loop commands refuse with directions (not
// a schema error), and — for a candidate the ranking carries as text — a whole skill folder, so an engine
// given the skill's folder sees its references and scripts beside the candidate's SKILL.md.
const SUITE = `skill_id: rn
version: "1.0"
tasks:
  - {id: t1, prompt: "notes", judge: {type: contains, expected: ["references/guide.md"]}}
`;
const TARGET = '# Release notes\nSee references/guide.md.\n';
const CANDIDATE = '# Release notes\nCANDIDATE TEXT: see references/guide.md and scripts/check.sh.\n';

// An agent that answers with every file it finds under WHET_SKILL_DIR and that folder's SKILL.md.
const LISTER = `#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
process.stdin.resume();
process.stdin.on('end', () => {
  const dir = process.env.WHET_SKILL_DIR ?? '';
  const files = [];
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else files.push(path.relative(dir, p)); } };
  walk(dir);
  process.stdout.write(JSON.stringify({ files: files.sort(), skill_md: fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8') }));
});
`;

function project(candidate: Record<string, unknown>): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), TARGET);
  write(join(dir, 'skill/references/guide.md'), '# Guide\n');
  write(join(dir, 'skill/scripts/check.sh'), '#!/bin/sh\necho ok\n');
  write(join(dir, 'tasks.yaml'), SUITE);
  const lister = write(join(dir, 'bin/lister.mjs'), LISTER);
  chmodSync(lister, 0o755);
  write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${process.execPath}", "${lister}"], skill_delivery: env}\n`);
  write(join(dir, 'in/ranking.json'), JSON.stringify({ run_id: 'r1', iteration: 1, target: { path: '../skill' }, scored_candidates: [{ id: 'c1', score: 8, ...candidate }] }, null, 2));
  return dir;
}

const evaluate = (dir: string) => whet(['evaluate', '--input', 'in/ranking.json', '--candidate-id', 'c1', '--task-suite', 'tasks.yaml', '--state-root', 'state', '--json'], { cwd: dir });

/** What the engine saw for the candidate: the files of its skill folder and the SKILL.md there. */
function seen(dir: string): { files: string[]; skill_md: string } {
  const line = readFileSync(join(dir, 'state/runs/r1/iter-001/results/c1.jsonl'), 'utf8').trim().split('\n')[0]!;
  return JSON.parse((JSON.parse(line) as { output: string }).output) as { files: string[]; skill_md: string };
}

describe('a pipeline-mode evaluation, afterwards', () => {
  it('an inline candidate under skill_delivery: env is the whole skill folder with its SKILL.md replaced', async () => {
    const dir = project({ skill_content: CANDIDATE });
    const r = await evaluate(dir);
    expect(r.code, r.stderr).toBe(0);
    const s = seen(dir);
    expect(s.files).toEqual(['SKILL.md', 'references/guide.md', 'scripts/check.sh']);
    expect(s.skill_md).toBe(CANDIDATE);
    // The folder evaluated is kept in the iteration, and the artifact's candidate hash is that folder's.
    const variant = join(dir, 'state/runs/r1/iter-001/variants/c1');
    expect(readFileSync(join(variant, 'SKILL.md'), 'utf8')).toBe(CANDIDATE);
    expect(readFileSync(join(variant, 'references/guide.md'), 'utf8')).toBe('# Guide\n');
    const a = readJson(join(dir, 'state/runs/r1/iter-001/evaluation.json'));
    expect(a.inputs.candidate).not.toBe(a.inputs.target);
    // The baseline saw the target itself, not the candidate.
    const base = readFileSync(join(dir, 'state/runs/r1/iter-001/results/baseline.jsonl'), 'utf8').trim().split('\n')[0]!;
    expect(JSON.parse((JSON.parse(base) as { output: string }).output).skill_md).toBe(TARGET);
    // A second evaluation keeps the first folder in superseded/ and evaluates a fresh one.
    const again = await evaluate(dir);
    expect(again.code, again.stderr).toBe(0);
    expect(Object.keys(snapshotTree(join(dir, 'state/runs/r1/iter-001/superseded'))).some((f) => /variants-c1\/SKILL\.md$/.test(f))).toBe(true);
  });

  it('whet gate, whet resume and whet review refuse the run with what to do instead, changing nothing', async () => {
    const dir = project({ skill_content: CANDIDATE });
    expect((await evaluate(dir)).code).toBe(0);
    const before = snapshotTree(join(dir, 'state'));
    for (const argv of [['gate', '--run', 'r1'], ['resume', 'r1'], ['generate', '--run', 'r1'], ['run', '--from', 'gate', '--run', 'r1'], ['review', 'approve', 'r1', 'c1']]) {
      const r = await whet([...argv, '--state-root', 'state'], { cwd: dir });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/run r1 was made by whet evaluate in pipeline mode/);
      expect(r.stderr).toMatch(/whet run/);
      expect(r.stderr).toMatch(/evaluation\.json/);
      expect(r.stderr).not.toMatch(/does not match its schema|expected "loop"/);
    }
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
    // Reading it still works.
    const shown = await whet(['show', 'r1', '--state-root', 'state'], { cwd: dir });
    expect(shown.code, shown.stderr).toBe(0);
  });
});
