import { it } from 'vitest';
import { readFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { loadSuite } from '../../src/config/suite.js';
import { assignSplits } from '../../src/config/split.js';
import { createMockEngine } from '../../src/engines/mock.js';
import { runVariant } from '../../src/evaluation/run-variant.js';
const base = readFileSync('examples/release-notes/SKILL.md', 'utf8');
async function run(text: string, label: string) {
  const s = loadSuite('examples/release-notes/tasks.yaml');
  const suite = { ...s, tasks: assignSplits(s.tasks, 0.3) };
  const dir = mkdtempSync(join(tmpdir(), 'x-'));
  const o = await runVariant({ variant: 'v', suite, skill: { name: 'rn', text }, engine: createMockEngine(), passK: 1, concurrency: 1, resultsFile: join(dir, 'r.jsonl') });
  console.log(label, o.tallies.map((t) => `${t.task_id}[${t.split}] ${t.passes ? 'PASS' : 'FAIL'} ${t.passes ? '' : t.reason}`).join('\n'));
}
it('x', async () => {
  await run(base, 'BASE\n');
  await run(base + process.env.ADD, 'ADD\n');
});
