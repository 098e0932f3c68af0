// The generated suite `npm run bench` measures: n tasks over two categories, contains + regex judges, and a
// skill under which the mock engine passes half of them (the apple tasks).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SKILL = `---
name: bench-skill
description: A generated skill for benchmarks.
---
# Bench skill
Requests about apples: reply with APPLE-OK and code 42-A.
Requests about pears: reply politely.
`;

export function writeBenchSuite(dir: string, n: number): string {
  const lines = ['skill_id: bench-skill', 'version: "1.0"', 'tasks:'];
  for (let i = 0; i < n; i++) {
    const fruit = i % 2 === 0 ? 'apples' : 'pears';
    lines.push(
      `  - id: t${i}`,
      `    category: ${fruit}`,
      `    prompt: "Question ${i} about ${fruit}"`,
      '    judges:',
      '      - {type: contains, expected: ["APPLE-OK"]}',
      '      - {type: regex, pattern: "\\\\d+-A"}',
    );
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), SKILL);
  const suite = join(dir, 'tasks.yaml');
  writeFileSync(suite, `${lines.join('\n')}\n`);
  return suite;
}
