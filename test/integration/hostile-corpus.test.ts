// Issue 42, item 7: the hostile-input corpus, run against every command that acts. Two tables.
// Damage: a finished loop run (iteration 1 keeps, iteration 2 rejects) damaged one way per row — a cut
// evaluation, a forged gate, garbage in a results log or events.jsonl, an edited backup — and every acting
// command (resume, run --from, a stage, review approve|reject, rollback, the viewer's feedback) refuses it
// with exit 2, naming the damaged file and `whet verify --repair`, the state directory byte-for-byte as it
// was; the viewer's review queue offers what `whet review list` lists and nothing else; `whet merge` refuses
// a damaged shard, `whet nightly` a damaged earlier night. Bounded input: the fixtures in test/fixtures/hostile/ (alias bomb, alias cycle, deep
// nesting, a missing target or suite) are refused by every command that reads them at `file:line:col`, exit
// 2, no stack trace, nothing written; the alias bomb also in a spawned CLI held to a 64 MB heap.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyExample, exampleLoopProject, readJson, repoRoot, snapshotTree, tempDir, whet, write } from '../support/cli.js';
import { startView } from '../support/view.js';

const HOSTILE = join(repoRoot, 'test/fixtures/hostile');
const cutInHalf = (f: string) => writeFileSync(f, readFileSync(f).subarray(0, Math.floor(readFileSync(f).length / 2)));

let finished: string;
let runId: string;
const iter = (dir: string, n: number) => join(dir, 'state/runs', runId, `iter-${String(n).padStart(3, '0')}`);

beforeAll(async () => {
  finished = exampleLoopProject({
    prefix: 'whet-hostile-',
    loop: '{max_iterations: 2, plateau_window: 3, candidates_per_iteration: 3, proposers: [feedback, structural]}',
    thresholds: '{min_delta: 0, max_new_failures: 0}',
  });
  const r = await whet(['run'], { cwd: finished });
  expect(r.code, r.stderr).toBe(0);
  runId = readdirSync(join(finished, 'state/runs')).sort().pop()!;
  expect(readJson(join(iter(finished, 1), 'gate.json')).decision).toBe('keep');
  expect(readJson(join(iter(finished, 2), 'gate.json')).decision).toBe('reject');
}, 120_000);

/** A damage: what it does to a copy of the finished project, the file the refusal must name, and its last line: what mends it. */
interface Damage {
  name: string;
  apply: (dir: string) => void;
  names: RegExp;
  advice: RegExp;
}

// Resume only where it measures again what the repair moves aside; the repair alone where it mends; neither promised where it cannot.
const RESUME = /\nfirst: "whet verify --repair (\S+)", then "whet resume \1" measures again what it moved to superseded\/$/;
const MENDS = /\nfirst: "whet verify --repair \S+"$/;
const CANNOT = /\nfirst: "whet verify --repair \S+" cannot mend this: do what each file's hint above says$/;

const resultsLog = (dir: string) => {
  const results = join(iter(dir, 1), 'results');
  return join(results, readdirSync(results).find((f) => f.endsWith('.jsonl'))!);
};

const DAMAGES: Damage[] = [
  { name: "iteration 1's evaluation.json cut in half", apply: (d) => cutInHalf(join(iter(d, 1), 'evaluation.json')), names: /DAMAGED \S*iter-001\/evaluation\.json:\d+:\d+: unparsable:/, advice: RESUME },
  {
    name: "iteration 2's rejecting gate.json forged to pending_review",
    apply: (d) => {
      const f = join(iter(d, 2), 'gate.json');
      writeFileSync(f, `${JSON.stringify({ ...readJson(f), decision: 'pending_review', verdict: 'pending_review' }, null, 2)}\n`);
    },
    names: /DAMAGED \S*iter-002\/gate\.json: edited:/,
    advice: RESUME,
  },
  { name: 'a garbage line in a results log', apply: (d) => appendFileSync(resultsLog(d), 'not a result\n'), names: /DAMAGED \S*iter-001\/results\/\S+\.jsonl:\d+:1: garbage:/, advice: RESUME },
  { name: 'a garbage line in events.jsonl', apply: (d) => appendFileSync(join(d, 'state/runs', runId, 'events.jsonl'), 'this line is garbage\n'), names: /DAMAGED \S*events\.jsonl:\d+:1: garbage:/, advice: MENDS },
  {
    name: "iteration 1's backup manifest edited",
    apply: (d) => {
      const f = join(d, 'state/backups', runId, 'iter-001/manifest.json');
      writeFileSync(f, `${JSON.stringify({ ...readJson(f), target_dir: join(d, 'elsewhere') }, null, 2)}\n`);
    },
    names: /DAMAGED \S*backups\/\S+\/iter-001\/manifest\.json: edited:/,
    advice: CANNOT,
  },
];

/** An acting command, as argv; `rollback` works from the backups and events.jsonl alone, so only their damage stops it. */
const ACTIONS: { name: string; argv: () => string[]; only?: RegExp }[] = [
  { name: 'whet resume', argv: () => ['resume', runId] },
  { name: 'whet run --from gate', argv: () => ['run', '--from', 'gate', '--run', runId] },
  { name: 'whet learn', argv: () => ['learn', '--run', runId] },
  { name: 'whet review approve', argv: () => ['review', 'approve', runId, 'cand-01', '--iteration', '2'] },
  { name: 'whet review reject', argv: () => ['review', 'reject', runId, 'cand-01', '--iteration', '2'] },
  { name: 'whet rollback', argv: () => ['rollback', runId], only: /events\.jsonl|backup/ },
];

describe('the damage corpus, against every acting command', () => {
  for (const damage of DAMAGES) {
    it(`${damage.name}: every acting command refuses, names it and changes nothing`, async () => {
      const dir = tempDir('whet-hostile-');
      cpSync(finished, dir, { recursive: true });
      damage.apply(dir);
      const skill = readFileSync(join(dir, 'release-notes/SKILL.md'));
      const before = snapshotTree(join(dir, 'state'));
      for (const a of ACTIONS) {
        if (a.only && !a.only.test(damage.name)) continue;
        const r = await whet(a.argv(), { cwd: dir });
        const what = `${a.name} on ${damage.name}: ${r.stderr}`;
        expect(r.code, what).toBe(2);
        expect(r.stderr, what).toMatch(damage.names);
        expect(r.stderr, what).toContain(`whet verify --repair`);
        expect(r.stderr.trimEnd(), what).toMatch(damage.advice);
        expect(r.stderr, what).not.toMatch(/\n\s+at |internal error/);
        expect(snapshotTree(join(dir, 'state')), what).toEqual(before);
        expect(readFileSync(join(dir, 'release-notes/SKILL.md')).equals(skill), what).toBe(true);
      }
      // The viewer: feedback on the damaged run is refused; the review queue is `whet review list`'s.
      const view = await startView(dir);
      try {
        const post = await fetch(`${view.origin}/api/feedback`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-whet-token': view.token, origin: view.origin },
          body: JSON.stringify({ run: runId, iteration: 1, task: 'rn-group-01', variant: 'baseline', attempt: null, rating: 'bad', comment: 'x' }),
        });
        const body = (await post.json()) as { error?: string };
        expect(post.status, body.error).toBe(400);
        expect(body.error).toMatch(damage.names);
        const queue = (await (await fetch(`${view.origin}/api/review?session=${view.token}`)).json()) as { pending: { run_id: string; candidate: string }[] };
        const list = JSON.parse((await whet(['review', 'list', '--json'], { cwd: dir })).stdout) as { run_id: string; candidate: string }[];
        expect(queue.pending.map((p) => `${p.run_id} ${p.candidate}`)).toEqual(list.map((p) => `${p.run_id} ${p.candidate}`));
        expect(queue.pending).toEqual([]);
      } finally {
        await view.stop();
      }
    }, 120_000);
  }

  it('whet merge refuses a shard whose results log holds a garbage line, writing nothing', async () => {
    const dir = tempDir('whet-hostile-merge-');
    copyExample('release-notes', join(dir, 'release-notes'));
    const ev = (i: number) => whet(['evaluate', '--standalone', '--mock', '--task-suite', 'release-notes/tasks.yaml', '--skill-path', 'release-notes', '--shard', `${i}/2`, '--state-root', `shard-${i}`], { cwd: dir });
    for (const i of [1, 2]) expect((await ev(i)).code).toBe(0);
    const run = join(dir, 'shard-2/runs', readdirSync(join(dir, 'shard-2/runs'))[0]!);
    const log = join(run, 'results', readdirSync(join(run, 'results')).find((f) => f.endsWith('.jsonl'))!);
    appendFileSync(log, 'not a result\n');
    const r = await whet(['merge', 'shard-1', 'shard-2', '--state-root', 'merged'], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/cannot merge the shard in \S*shard-2\S*: run \S+ is damaged/);
    expect(r.stderr).toMatch(/DAMAGED \S*shard-2\/runs\/\S+\/results\/\S+\.jsonl:\d+:1: garbage:/);
    expect(r.stderr).toMatch(/whet verify --repair --state-root \S*shard-2 \S+, or measure that shard again/);
    expect(existsSync(join(dir, 'merged'))).toBe(false);
  }, 120_000);

  it('whet nightly refuses when the night it compares with is cut in half, measuring nothing', async () => {
    const dir = tempDir('whet-hostile-night-');
    copyExample('release-notes', join(dir, 'release-notes'));
    write(join(dir, 'pipeline.yaml'), 'state_dir: state\nengine: {type: mock}\ntargets: [{skill: release-notes, suite: release-notes/tasks.yaml}]\n');
    expect((await whet(['nightly'], { cwd: dir })).code).toBeLessThan(2);
    const nights = join(dir, 'state/nightly');
    const day = readdirSync(nights).find((f) => /^\d{4}-\d{2}-\d{2}\.json$/.test(f))!;
    cutInHalf(join(nights, day));
    const before = snapshotTree(join(dir, 'state'));
    const r = await whet(['nightly'], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`DAMAGED \\S*nightly/${day.replace('.', '\\.')}:\\d+:\\d+: unparsable: the night record`));
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
  }, 120_000);
});

/** A project whose skill is the example's, with the fixture copied in; `suite` names a hostile suite. */
function project(): string {
  const dir = tempDir('whet-hostile-in-');
  copyExample('release-notes', join(dir, 'skill'));
  for (const f of readdirSync(HOSTILE)) cpSync(join(HOSTILE, f), join(dir, f));
  return dir;
}
const withSuite = (suite: string) => `state_dir: state\nengine: {type: mock}\ntargets: [{skill: skill, suite: ${suite}}]\n`;

const BOMB = /alias-bomb-suite\.yaml:19:18: this alias repeats [\d,]+ nodes and characters, and the document's aliases expand it past [\d,]+ \(an alias bomb\)/;
const INPUTS: { name: string; argv: string[]; config?: string; refused: RegExp }[] = [
  { name: 'alias bomb: evaluate', argv: ['evaluate', '--standalone', '--mock', '--task-suite', 'alias-bomb-suite.yaml', '--skill-path', 'skill'], refused: BOMB },
  { name: 'alias bomb: lint', argv: ['lint', 'alias-bomb-suite.yaml'], refused: BOMB },
  { name: 'alias bomb: run', argv: ['run'], config: withSuite('alias-bomb-suite.yaml'), refused: BOMB },
  { name: 'alias bomb: baseline', argv: ['baseline'], config: withSuite('alias-bomb-suite.yaml'), refused: BOMB },
  { name: 'alias bomb: nightly', argv: ['nightly'], config: withSuite('alias-bomb-suite.yaml'), refused: BOMB },
  { name: 'alias bomb: plan', argv: ['plan'], config: withSuite('alias-bomb-suite.yaml'), refused: BOMB },
  { name: 'alias bomb in pipeline.yaml: run', argv: ['run', '-c', 'alias-bomb-pipeline.yaml'], refused: /alias-bomb-pipeline\.yaml:14:14: this alias repeats/ },
  { name: 'alias bomb in a promptfoo config: import', argv: ['import', 'promptfoo', 'promptfoo-bomb.yaml'], refused: /promptfoo-bomb\.yaml:16:20: this alias repeats/ },
  { name: 'alias cycle: evaluate', argv: ['evaluate', '--standalone', '--mock', '--task-suite', 'alias-cycle-suite.yaml', '--skill-path', 'skill'], refused: /alias-cycle-suite\.yaml:10:17: this alias names a value that contains it/ },
  { name: 'deep nesting: evaluate', argv: ['evaluate', '--standalone', '--mock', '--task-suite', 'deep-suite.yaml', '--skill-path', 'skill'], refused: /deep-suite\.yaml:3:135: nested too deeply/ },
  { name: 'deep nesting: run', argv: ['run'], config: withSuite('deep-suite.yaml'), refused: /deep-suite\.yaml:3:135: nested too deeply/ },
  { name: 'deep evals.json: evaluate', argv: ['evaluate', '--standalone', '--mock', '--task-suite', 'deep-evals.json', '--skill-path', 'skill'], refused: /deep-evals\.json:1:\d+: nested too deeply/ },
  { name: 'missing target: run', argv: ['run', '-c', 'missing-target-pipeline.yaml'], refused: /missing-target-pipeline\.yaml:5:13 targets\[0\]\.skill: no such skill folder or SKILL\.md: skills\/nope/ },
  { name: 'missing target: baseline', argv: ['baseline', '-c', 'missing-target-pipeline.yaml'], refused: /missing-target-pipeline\.yaml:5:13 targets\[0\]\.skill: no such skill folder/ },
  { name: 'missing suite: run', argv: ['run', '-c', 'missing-suite-pipeline.yaml'], refused: /missing-suite-pipeline\.yaml:6:12 targets\[0\]\.suite: no such suite file: skill\/nope\.yaml/ },
  { name: 'missing suite: nightly', argv: ['nightly', '-c', 'missing-suite-pipeline.yaml'], refused: /missing-suite-pipeline\.yaml:6:12 targets\[0\]\.suite: no such suite file/ },
];

describe('the bounded-input corpus (test/fixtures/hostile/), against every command that reads it', () => {
  it.each(INPUTS)('$name: exit 2 at its line, no stack trace, nothing written', async ({ argv, config, refused }) => {
    const dir = project();
    if (config) write(join(dir, 'pipeline.yaml'), config);
    const r = await whet(argv, { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(refused);
    expect(r.stderr).not.toMatch(/\n\s+at |internal error|RangeError/);
    // (baseline and nightly take the state lock before they read the suites: an empty folder at most.)
    expect(snapshotTree(join(dir, 'state'))).toEqual({});
  });

  it('the alias bomb is refused by the shipped CLI within a 64 MB heap', () => {
    const dir = project();
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['--max-old-space-size=64', join(repoRoot, 'dist/bin/whet.js'), 'evaluate', '--standalone', '--mock', '--task-suite', 'alias-bomb-suite.yaml', '--skill-path', 'skill'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(BOMB);
    // Before: 29 s and 1.9 GB. Wall time on a shared machine is loose; the heap cap is the bound.
    expect(Number(process.hrtime.bigint() - t0) / 1e9).toBeLessThan(30);
  });

  it('a label file whose category column holds only labels is read, with a warning naming it', async () => {
    const dir = project();
    const r = await whet(['calibrate', 'labels-as-category.csv'], { cwd: dir });
    expect(r.stdout).toMatch(/warning: labels-as-category\.csv:2: the category column \(the third in a CSV\) holds only PASS\/FAIL values, read as categories "FAIL" and "PASS"/);
    const clean = join(dir, 'clean.csv');
    writeFileSync(clean, 'human,judge,category\nPASS,FAIL,grouping\nFAIL,FAIL,tone\n');
    expect((await whet(['calibrate', 'clean.csv'], { cwd: dir })).stdout).not.toMatch(/category column/);
  });
});
