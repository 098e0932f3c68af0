import { describe, expect, it, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot, snapshotTree, tempDir, whet, write } from '../support/cli.js';

// Ids that name files and folders, from every place they enter: each of these must be refused with exit 2
// and a message naming the problem, and nothing may appear anywhere — inside the state directory or
// beside it. The parent folder is listed recursively before and after the whole corpus has gone through.
let parent: string;
let proj: string;
const CORPUS: [string, string][] = [
  ['../x', 'path separator'],
  ['../../escape', 'path separator'],
  ['../../../escape-parent', 'path separator'],
  ['', 'empty'],
  ['.', 'names a folder'],
  ['..', 'names a folder'],
  ['a/b', 'path separator'],
  ['a\\b', 'path separator'],
  ['a\0b', 'NUL'],
  ['x'.repeat(300), '300 characters'],
];
const abs = () => join(parent, 'abs-escape');
const corpus = (): [string, string][] => [...CORPUS, [abs(), 'absolute path'], ['/tmp/whet-traversal-x', 'absolute path']];

function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      out.push(relative(parent, p));
      if (statSync(p).isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

const SUITE = (id: string, category = 'notes') => `skill_id: rn\nversion: "1.0"\ntasks:\n  - {id: ${JSON.stringify(id)}, category: ${JSON.stringify(category)}, prompt: "notes", judge: {type: contains, expected: ["Release"]}}\n`;
const ranking = (o: { run_id?: unknown; iteration?: unknown; id?: unknown }) =>
  `{\n  "run_id": ${JSON.stringify(o.run_id ?? 'r1')},\n  "iteration": ${JSON.stringify(o.iteration ?? 1)},\n  "target": {"path": "../skill"},\n  "scored_candidates": [\n    {"id": ${JSON.stringify(o.id ?? 'c1')}, "score": 8, "skill_content": "# Release notes\\nMore.\\n"}\n  ]\n}\n`;
const cli = (argv: string[]) => whet([...argv, '--state-root', 'state'], { cwd: proj });
const evalRanking = (file: string, cand = 'c1') => cli(['evaluate', '--input', file, '--candidate-id', cand, '--task-suite', 'tasks.yaml', '--mock']);

/** Every refusal: exit 2, the problem named, no internal error or stack trace. */
function refused(r: { code: number; stderr: string }, what: string, why: RegExp): void {
  expect(r.code, `${what}: ${r.stderr}`).toBe(2);
  expect(r.stderr, what).toMatch(why);
  expect(r.stderr, what).not.toMatch(/internal error|\n\s+at .*:\d+:\d+/);
}

describe('ids that would name a path outside the state directory', () => {
  let before: string[];
  let stateBefore: Record<string, string>;
  beforeAll(async () => {
    parent = tempDir('whet-traversal-');
    proj = join(parent, 'proj');
    write(join(proj, 'skill/SKILL.md'), '# Release notes\nGroup.\n');
    write(join(proj, 'tasks.yaml'), SUITE('t1'));
    write(join(proj, 'in/ranking.json'), ranking({}));
    // A real run to aim at, so a bad candidate id meets a run that exists.
    const r = await evalRanking('in/ranking.json');
    expect(r.code, r.stderr).toBe(0);
    before = listing(parent);
    stateBefore = snapshotTree(join(proj, 'state'));
  });

  it('are refused on every command-line entry point', async () => {
    for (const [bad, why] of corpus()) {
      const re = new RegExp(`must be a safe file name|pipeline mode needs`);
      const points: string[][] = [
        ['show', bad],
        ['show', bad, 'evaluate'],
        ['diff', bad, 'c1'],
        ['diff', 'r1', bad],
        ['resume', bad],
        ['gate', '--run', bad],
        ['generate', '--run', bad],
        ['discriminate', '--run', bad],
        ['learn', '--run', bad],
        ['run', '--from', 'gate', '--run', bad],
        ['rollback', bad],
        ['review', 'approve', bad, 'c1'],
        ['review', 'reject', 'r1', bad],
        ['report', bad],
        ['evaluate', '--input', 'in/ranking.json', '--candidate-id', bad, '--task-suite', 'tasks.yaml', '--mock'],
      ];
      for (const argv of points) refused(await cli(argv), `${argv.join(' ')} (${why})`, re);
    }
  });

  it('refuses iteration numbers that are not whole numbers in range, on every flag that takes one', async () => {
    for (const bad of ['../x', '0', '-1', '1.5', '1e3', '', 'NaN', '100000', '99999999999999999999']) {
      for (const argv of [['show', 'r1', 'evaluate', '--iteration', bad], ['diff', 'r1', 'c1', '--iteration', bad], ['review', 'approve', 'r1', 'c1', '--iteration', bad], ['report', 'r1', '--iteration', bad]]) {
        refused(await cli(argv), argv.join(' '), /--iteration must be a whole number from 1 to 99999/);
      }
    }
  });

  it('are refused inside a ranking with file:line:col and the field, before anything is written', async () => {
    for (const [bad, why] of corpus()) {
      const f1 = write(join(proj, 'in/bad-run.json'), ranking({ run_id: bad }));
      refused(await evalRanking(f1), `ranking run_id (${why})`, /in\/bad-run\.json:2:13 run_id: must be a safe file name/);
      const f2 = write(join(proj, 'in/bad-cand.json'), ranking({ id: bad }));
      refused(await evalRanking(f2, 'c1'), `ranking candidate id (${why})`, /in\/bad-cand\.json:6:12 scored_candidates\[0\]\.id: must be a safe file name/);
    }
    for (const bad of [-1, 1.5, 100000, 1e300, '1', '../x']) {
      const f = write(join(proj, 'in/bad-iter.json'), ranking({ iteration: bad }));
      refused(await evalRanking(f), `ranking iteration ${String(bad)}`, /in\/bad-iter\.json:3:16 iteration: /);
    }
  });

  it('are refused in a task suite, at the id’s line and column', async () => {
    for (const [bad, why] of corpus()) {
      write(join(proj, 'bad-tasks.yaml'), SUITE(bad));
      const r = await cli(['evaluate', '--standalone', '--skill-path', 'skill', '--task-suite', 'bad-tasks.yaml', '--mock']);
      refused(r, `task id (${why})`, /bad-tasks\.yaml:4:\d+ tasks\[0\]\.id: must be a safe file name/);
      write(join(proj, 'bad-tasks.yaml'), SUITE('t1', bad));
      const c = await cli(['evaluate', '--standalone', '--skill-path', 'skill', '--task-suite', 'bad-tasks.yaml', '--mock']);
      refused(c, `category (${why})`, /bad-tasks\.yaml:4:\d+ tasks\[0\]\.category: must be a safe file name/);
    }
  });

  it('spawned as a real process: a flag and a ranking are refused with exit 2 and one clear line', () => {
    const run = (argv: string[]) => spawnSync(process.execPath, [join(repoRoot, 'dist/src/cli.js'), ...argv, '--state-root', 'state'], { cwd: proj, encoding: 'utf8' });
    const a = run(['show', '../../escape']);
    expect(a.status, a.stderr).toBe(2);
    expect(a.stderr).toBe('whet: run "../../escape": must be a safe file name: it contains "/" (a path separator); use letters, digits, ".", "_" or "-", starting with a letter or digit, at most 128 characters\n');
    write(join(proj, 'in/spawn.json'), ranking({ run_id: '../../escape' }));
    const b = run(['evaluate', '--input', 'in/spawn.json', '--candidate-id', 'c1', '--task-suite', 'tasks.yaml', '--mock']);
    expect(b.status, b.stderr).toBe(2);
    expect(b.stderr).toMatch(/^whet: in\/spawn\.json:2:13 run_id: must be a safe file name: it contains "\/"/);
    const c = run(['diff', 'r1', 'x'.repeat(300)]);
    expect(c.status, c.stderr).toBe(2);
    expect(c.stderr).toMatch(/candidate "x{39}…" \(300 characters\): must be a safe file name: it is 300 characters long/);
  });

  it('left nothing behind: the state directory is unchanged and nothing appeared beside it', () => {
    // Runs after the others (vitest runs a file's tests in order).
    expect(snapshotTree(join(proj, 'state'))).toEqual(stateBefore);
    // Only the inputs this file wrote itself (rankings under in/, the bad suite) are new.
    const mine = (p: string) => p.startsWith('proj/in/') || p === 'proj/bad-tasks.yaml';
    expect(listing(parent).filter((p) => !mine(p))).toEqual(before.filter((p) => !mine(p)));
    expect(existsSync(abs())).toBe(false);
    expect(existsSync('/tmp/whet-traversal-x')).toBe(false);
  });
});
