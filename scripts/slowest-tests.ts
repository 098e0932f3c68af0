// The slowest test files of a run, named in CI's output (issue 43): the suite must stay under 15 minutes on
// two cores as seeded trials are added, and the files to trim are the ones at the top of this list.
// Reads vitest's JSON report (`--reporter=json --outputFile.json=FILE`): `node dist/scripts/slowest-tests.js FILE [N]`.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';

interface FileResult {
  name: string;
  startTime?: number;
  endTime?: number;
  assertionResults?: { duration?: number | null }[];
}

export interface FileTime {
  file: string;
  seconds: number;
  tests: number;
}

/** Each test file's wall time in the run (its tests' summed durations when the file's own times are absent), slowest first. */
export function slowestFiles(report: { testResults?: FileResult[] }, root = process.cwd()): FileTime[] {
  return (report.testResults ?? [])
    .map((r) => {
      const own = r.endTime !== undefined && r.startTime !== undefined ? r.endTime - r.startTime : undefined;
      const summed = (r.assertionResults ?? []).reduce((s, a) => s + (a.duration ?? 0), 0);
      return { file: relative(root, r.name), seconds: (own ?? summed) / 1000, tests: r.assertionResults?.length ?? 0 };
    })
    .sort((a, b) => b.seconds - a.seconds);
}

export function formatSlowest(files: FileTime[], count: number): string {
  const total = files.reduce((s, f) => s + f.seconds, 0);
  const lines = files.slice(0, count).map((f) => `${f.seconds.toFixed(1).padStart(8)} s  ${String(f.tests).padStart(4)} tests  ${f.file}`);
  return [`slowest ${Math.min(count, files.length)} of ${files.length} test files (${total.toFixed(0)} s of file time in all):`, ...lines].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, n] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: slowest-tests REPORT.json [N]\n');
    process.exitCode = 2;
  } else {
    process.stdout.write(`${formatSlowest(slowestFiles(JSON.parse(readFileSync(file, 'utf8'))), Number(n ?? 15))}\n`);
  }
}
