// `leak-expected` also flags a skill that pastes a judge's mechanics verbatim, however short: a whole
// expected list (each string quoted, in order) or a regex source. A planted candidate — the example
// skill with the old feedback proposer's checklist line and a title regex added — is caught; the same
// skill with guidance in its own words is not.
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSuite } from '../../src/lint/index.js';
import { repoRoot, tempDir, write } from '../support/cli.js';

const example = join(repoRoot, 'examples/release-notes');

function project(extra: string): string {
  const dir = tempDir();
  write(join(dir, 'SKILL.md'), `${readFileSync(join(example, 'SKILL.md'), 'utf8')}\n## Checks\n\n${extra}\n`);
  copyFileSync(join(example, 'tasks.yaml'), join(dir, 'tasks.yaml'));
  return dir;
}

const leaks = (dir: string) => lintSuite({ suite: 'tasks.yaml' }, dir).findings.filter((f) => f.rule === 'leak-expected');
// The example skill itself already holds one long expected string (rn-scope-01's boundary sentence, the
// length rule's finding); only what the planted text adds counts here.
const before = new Set(leaks(project('Nothing else.')).map((f) => f.message));
const mechanics = (dir: string) => leaks(dir).filter((f) => !before.has(f.message));

describe('leak-expected: judge mechanics pasted verbatim', () => {
  it('flags a whole expected list and a regex source, though every string is shorter than the length rule', () => {
    const dir = project(
      [
        '- When a release notes request involves breaking changes, the answer includes "Breaking changes" and "migration".',
        '- Titles match v\\d+\\.\\d+\\.\\d+.',
        '- Never write ["Features for feat commits"].',
      ].join('\n'),
    );
    const found = mechanics(dir);
    expect(found.map((f) => [f.task, f.message])).toEqual([
      ['rn-title-01', 'the regex source /v\\d+\\.\\d+\\.\\d+/ of task "rn-title-01" appears verbatim in SKILL.md:32'],
      ['rn-breaking-01', 'the whole expected list of task "rn-breaking-01" (contains, 2 strings) appears verbatim in SKILL.md:31'],
    ]);
    const skillLines = readFileSync(join(dir, 'SKILL.md'), 'utf8').split('\n');
    expect(skillLines[30]).toContain('the answer includes "Breaking changes" and "migration"');
    expect(skillLines[31]).toContain('v\\d+');
    // The finding points at the judge's field in the suite, where the case can be replaced.
    const suiteLines = readFileSync(join(dir, 'tasks.yaml'), 'utf8').split('\n');
    for (const f of found) expect(f).toMatchObject({ file: 'tasks.yaml', severity: 'warning' });
    expect(suiteLines[found[1]!.line - 1]).toContain('"Breaking changes", "migration"');
    expect(suiteLines[found[0]!.line - 1]).toContain('pattern:');
  });

  it('also catches the list written as JSON or with curly quotes, in order only', () => {
    expect(mechanics(project('Must hold: [“Breaking changes”, “migration”].')).map((f) => f.task)).toEqual(['rn-breaking-01']);
    expect(mechanics(project("Include 'Breaking changes' or 'migration'."))).toHaveLength(1);
    expect(mechanics(project('Include "migration" and "Breaking changes".'))).toEqual([]);
  });

  it('leaves guidance in its own words alone, domain words included', () => {
    const dir = project('- When a release includes breaking changes, list them first under a Breaking changes heading and say how users migrate.\n- Title the notes with the version, e.g. v2.4.0.');
    expect(mechanics(dir)).toEqual([]);
  });
});
