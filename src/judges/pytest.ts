// The pytest judge is the script judge with a fixed command. Its test file comes from the suite, so
// it is confined to the suite folder (the seed guarded this with a `fixtures/` prefix check). Pytest's
// exit codes separate "the output failed the tests" (1) from "pytest could not test" (2 interrupted,
// 3 internal error, 4 usage error, 5 no tests collected); only the first is a fail.
// The cache provider and bytecode writing are turned off so judging never writes into the suite folder.
import type { JudgeSpec } from '../config/suite-schema.js';
import type { RunOutcome } from '../core/proc.js';
import type { JudgeContext, JudgeResult } from './types.js';
import { pytestFileInSuite, resolveInsideSuite } from '../config/suite-files.js';
import { errorResult, oneLine, tailLines } from './result.js';
import { noVerdict, runOnOutput, timeoutOf } from './script.js';

type PytestSpec = Extract<JudgeSpec, { type: 'pytest' }>;

const PYTEST_EXIT: Record<number, string> = {
  2: 'test run was interrupted (often a collection or import error)',
  3: 'internal error',
  4: 'usage error',
  5: 'no tests were collected',
};

/**
 * A reason names the failing tests (pytest's `FAILED file::test` / `ERROR file::test` lines), says why
 * (the first `E   …` line: the assertion message, or the import error behind a collection failure) and
 * ends with pytest's count line. Only those lines are read because the rest varies with pytest's
 * settings: with `CI` set in the environment pytest prints the whole multi-line message in its short
 * summary, and a tail of the output would then show only the assertion's `+ where` lines.
 */
function summary(o: RunOutcome): string {
  const lines = o.stdout.split(/\r?\n/).map((l) => l.trim());
  const firstE = /^E\s+(.+)$/m.exec(o.stdout)?.[1]?.trim();
  const failed = lines
    .map((l) => /^(?:FAILED|ERROR) (.+?)(?: - |$)/.exec(l)?.[1])
    .filter((id): id is string => id !== undefined)
    .map((id) => (id.includes('::') ? id.slice(id.lastIndexOf('::') + 2) : id));
  const count = [...lines].reverse().find((l) => /^=*\s*\d+ (?:failed|passed|error|errors|skipped|deselected)\b/.test(l));
  const parts: string[] = [];
  const names = [...new Set(failed)];
  if (names.length > 0) parts.push(`${names.slice(0, 5).join(', ')}${names.length > 5 ? ` (+${names.length - 5} more)` : ''}`);
  if (firstE) parts.push(firstE);
  if (count) parts.push(count.replace(/^=+\s*|\s*=+$/g, ''));
  if (parts.length === 0) {
    const plain = lines.filter((l) => !/^[=_-]{3,}.*[=_-]{3,}$/.test(l)).join('\n');
    parts.push(...[tailLines(plain, 2), tailLines(o.stderr, 2)].filter((p) => p.length > 0));
  }
  return parts.join(' | ');
}

export function pytestArgv(testFile: string): string[] {
  return ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', testFile];
}

export async function judgePytest(spec: PytestSpec, ctx: JudgeContext): Promise<JudgeResult> {
  const file = await resolveInsideSuite(ctx.suiteDir, pytestFileInSuite(ctx.suiteDir, spec.test_file), 'pytest test_file');
  if (!file.ok) return errorResult('pytest', file.message);
  const timeoutMs = timeoutOf(spec.timeout_seconds, ctx);
  const run = await runOnOutput(pytestArgv(file.path), ctx, timeoutMs, { PYTHONDONTWRITEBYTECODE: '1' });
  if (!run.ok) return errorResult('pytest', run.message);
  const o = run.outcome;
  const broken = noVerdict(o, timeoutMs);
  if (broken !== undefined) return errorResult('pytest', `pytest ${broken}`);
  const why = summary(o);

  if (o.exitCode === 0) {
    return { type: 'pytest', passed: true, score: 1, reason: oneLine(`tests passed: ${tailLines(o.stdout, 1) || 'exit 0'}`) };
  }
  // `python3 -m pytest` without pytest installed exits 1 too; that is a broken setup, not a failed output.
  if (o.exitCode === 1 && /No module named pytest/.test(o.stderr)) {
    return errorResult('pytest', 'pytest is not installed for python3 (python3 -m pytest: No module named pytest)');
  }
  if (o.exitCode === 1) {
    return { type: 'pytest', passed: false, score: 0, reason: oneLine(`tests failed: ${why || 'exit 1'}`) };
  }
  const meaning = PYTEST_EXIT[o.exitCode ?? -1] ?? 'unexpected exit';
  return errorResult('pytest', `pytest exit code ${o.exitCode} (${meaning})${why ? `: ${why}` : ''}`);
}
