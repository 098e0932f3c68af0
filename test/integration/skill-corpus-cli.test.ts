// The awkward SKILL.md corpus through a whole command (issue 32): `whet evaluate` on each corpus skill with
// a command engine that answers with the name it was handed (WHET_SKILL_NAME, skill_delivery: env). The
// name an engine gets is the one the CommonMark reference and the name rule give (test/support/
// skill-reference.ts) — the same the unit test holds every reader to — and the text it gets is the file's
// bytes, frontmatter and all. Run in process, one small project per corpus folder, under its own name.
import { createHash } from 'node:crypto';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { findFiles, tempDir, whet, write } from '../support/cli.js';
import { corpus, corpusDirs, expectedName, reference } from '../support/skill-reference.js';

// Answers "<name>|<sha of the SKILL.md text it was given>", so one task checks both.
const ECHO = `const fs = require('node:fs'); const h = require('node:crypto').createHash('sha256').update(fs.readFileSync(process.env.WHET_SKILL_FILE)).digest('hex'); process.stdout.write(process.env.WHET_SKILL_NAME + '|' + h);`;

describe('whet evaluate on the awkward SKILL.md corpus', () => {
  it('hands each engine the name every reader agrees on, and the file as it is', async () => {
    const root = tempDir('whet-corpus-');
    const seen: Record<string, string> = {};
    const want: Record<string, string> = {};
    for (const dir of corpusDirs) {
      const project = join(root, dir);
      cpSync(join(corpus, dir), join(project, dir), { recursive: true });
      const bytes = readFileSync(join(corpus, dir, 'SKILL.md'));
      want[dir] = `${expectedName(reference(bytes.toString('utf8')).yaml, dir)}|${createHash('sha256').update(bytes).digest('hex')}`;
      write(join(project, 'tasks.yaml'), `skill_id: corpus\nversion: "1.0"\ntasks:\n  - id: t1\n    prompt: "name?"\n    judge: {type: contains, expected: ["|"]}\n`);
      write(join(project, 'pipeline.yaml'), `engine: {type: command, command: ${JSON.stringify([process.execPath, '-e', ECHO])}, skill_delivery: env}\n`);
      const r = await whet(['evaluate', '--standalone', '--task-suite', 'tasks.yaml', '--skill-path', dir, '--state-root', 'state'], { cwd: project, env: process.env });
      expect(r.code, `${dir}: ${r.stderr}`).not.toBe(3);
      const log = findFiles(join(project, 'state'), 'baseline.jsonl')[0]!;
      seen[dir] = (JSON.parse(readFileSync(log, 'utf8').split('\n')[0]!) as { output: string }).output;
    }
    expect(seen).toEqual(want);
  }, 120_000);
});
