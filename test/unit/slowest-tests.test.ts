// CI names the slowest test files (issue 43): the summary of vitest's JSON report .ci/run prints.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { formatSlowest, slowestFiles } from '../../scripts/slowest-tests.js';
import { repoRoot } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const report = {
  testResults: [
    { name: '/repo/test/unit/a.test.ts', startTime: 1_000, endTime: 3_500, assertionResults: [{ duration: 2_000 }, { duration: 400 }] },
    { name: '/repo/test/integration/b.test.ts', startTime: 0, endTime: 42_000, assertionResults: [{ duration: 41_000 }] },
    { name: '/repo/test/unit/c.test.ts', assertionResults: [{ duration: 700 }, { duration: null }, { duration: 50 }] },
  ],
};

describe('the slowest test files', () => {
  it('orders files by their time in the run, a file\'s own times first, else its tests\' summed', () => {
    expect(slowestFiles(report, '/repo')).toEqual([
      { file: 'test/integration/b.test.ts', seconds: 42, tests: 1 },
      { file: 'test/unit/a.test.ts', seconds: 2.5, tests: 2 },
      { file: 'test/unit/c.test.ts', seconds: 0.75, tests: 3 },
    ]);
    expect(formatSlowest(slowestFiles(report, '/repo'), 2).split('\n')).toEqual([
      'slowest 2 of 3 test files (45 s of file time in all):',
      '    42.0 s     1 tests  test/integration/b.test.ts',
      '     2.5 s     2 tests  test/unit/a.test.ts',
    ]);
  });

  it('runs as CI calls it, on a report file', () => {
    const file = join(tempDir('whet-slowest-'), 'vitest.json');
    writeFileSync(file, JSON.stringify(report));
    const r = spawnSync(process.execPath, [join(repoRoot, 'dist/scripts/slowest-tests.js'), file, '1'], { cwd: '/', encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^slowest 1 of 3 test files .*\n +42\.0 s +1 tests +repo\/test\/integration\/b\.test\.ts\n$/);
  });
});
