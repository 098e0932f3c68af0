// `npm run bench` (issue 15): the real script, as a process, at toy sizes — it must start its own loopback
// server, measure every row of the table and print each against its reference as a ratio. The
// figures themselves are never asserted (they belong to the machine), only that each row is there and
// says what it compares with. The seeded tables run at 5 trials: only that their rows are printed is
// checked here; their rates at full counts are `npm run bench`'s, and the rates tests' (decision-rates etc.).
// long-running: runs the bench's rows, Chromium included, ≈ 55 s
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';

describe('npm run bench', () => {
  it('prints every row of the table as a ratio to its reference', () => {
    const args = ['--tasks', '100', '--large-tasks', '200', '--latency-tasks', '64', '--latency-ms', '20', '--concurrency', '16', '--repeat', '1', '--heavy-repeat', '1', '--decision-trials', '5', '--drift-trials', '10', '--drift-sequences', '10', '--view-runs', '50', '--status-tasks', '100', '--http-repeat', '1'];
    const r = spawnSync(process.execPath, [join(repoRoot, 'dist/scripts/bench.js'), ...args], { encoding: 'utf8', timeout: 240_000 });
    expect(r.status, r.stderr).toBe(0);
    const [first, rest] = r.stdout.split('decisions on a simulated noisy model');
    const [decisions, afterDecisions] = rest!.split('trigger suites on a simulated noisy agent');
    const [triggers, afterTriggers] = afterDecisions!.split('drift on a simulated noisy engine');
    const [drift, afterDrift] = afterTriggers!.split('nightly drift over sequences of dated nights');
    const [nightly, afterNightly] = afterDrift!.split('run-level claims on a simulated noisy model');
    const [runLevel, guard] = afterNightly!.split('the regression guard on a simulated noisy model');
    // The regression guard's table (issue 38 §5): a task that fell, and three edits where none did.
    const grows = guard!.split('\n').filter((l) => l.startsWith('| '));
    expect(grows[0]).toMatch(/^\| edit \(5 seeded runs each\) \| fallen task named \| rejected/);
    expect(grows.slice(1).map((g) => g.split(' | ')[0])).toEqual(['| one held-out task 0.9 → 0.3, the rest +10', '| no task falls, every task +10', '| no task falls, every task +25', '| nothing changes']);
    for (const g of grows.slice(1)) expect(g).toMatch(/^\| .+ \| (\d+\.\d%|—) \| \d+\.\d% \| \d+\.\d% · \d+\.\d% \| \d+\.\d\d · \d+ \|$/);
    // The drift table: tonight's alert rate with nothing changed and after two drops.
    const frows = drift!.split('\n').filter((l) => l.startsWith('| '));
    expect(frows[0]).toMatch(/^\| tonight \(10 seeded chains of six nights each\) \| alert rate/);
    expect(frows.slice(1).map((f) => f.split(' | ')[0])).toEqual(['| nothing changed', '| every chance down 0.10', '| every chance down 0.25']);
    for (const f of frows.slice(1)) expect(f).toMatch(/^\| .+ \| \d+\.\d% \| \d+\.\d\d \| \d+\/\d+ \|$/);
    // The nightly drift table (issue 39): false alerts per 30 unchanged nights, a slow decline, a step.
    const nrows = nightly!.split('\n').filter((l) => l.startsWith('| '));
    expect(nrows[0]).toMatch(/^\| model \| false alerts per 30 unchanged nights \| −2 points a night alerted by night 10 \| −10 step alerted that night or next \|$/);
    expect(nrows.slice(1)).toHaveLength(2);
    for (const d of nrows.slice(1)) expect(d).toMatch(/^\| 40 tasks, .* \| \d\.\d\d \(night \d\.\d\d, accumulated \d\.\d\d\) \| \d+% \(mean night \d+\.\d\) \| \d+% \|$/);
    // The run-level table (issue 38): three loops and the first without the run-level correction, then eight single-decision rows.
    const rrows = runLevel!.split('\n').filter((l) => l.startsWith('| '));
    expect(rrows[0]).toMatch(/^\| case \(default settings: max_attempts 10, max_iterations 5\) \| runs \|/);
    expect(rrows.slice(1)).toHaveLength(12);
    expect(rrows[4]).toMatch(/no run-level correction/);
    for (const l of rrows.slice(1, 5)) expect(l).toMatch(/^\| loop: .+ \| \d+ \| \d+\.\d% · \d+\.\d% \| \d+ \| — \|$/);
    // The trigger-suite table: a row per description edit, the gate's keeps, why the bars rejected, and two references.
    const trows = triggers!.split('\n').filter((l) => l.startsWith('| '));
    expect(trows[0]).toMatch(/^\| description edit \(5 seeded runs each\) \| candidate's true trigger/);
    expect(trows.slice(1)).toHaveLength(7);
    for (const t of trows.slice(1)) expect(t).toMatch(/^\| .+ \| \d\.\d\d · \d\.\d\d( \| \d+\.\d%){5} \|$/);
    const table = first!.split('\n').filter((l) => l.startsWith('| '));
    // The decisions table: a row per true effect, whetstone's gate beside its two references.
    const drows = decisions!.split('\n').filter((l) => l.startsWith('| '));
    expect(drows[0]).toMatch(/^\| true effect \(5 seeded runs each\) \| whetstone's gate/);
    expect(drows.slice(1)).toHaveLength(4);
    // The last column: engine calls per correct decision (issue 38).
    for (const d of drows.slice(1)) expect(d).toMatch(/^\| .+ \| \d+\.\d% · \d+\.\d\d · \d+ \| \d+\.\d% · \d+ \| \d+\.\d% · \d+ \| \d\.\d\d× \| (\d+|∞) \|$/);
    expect(table[0]).toBe('| case | measured | reference | ratio | goal |');
    const rows = table.slice(1);
    const num = String.raw`\d+\.\d\d`;
    const expected = [
      new RegExp(String.raw`^\| 100 tasks, instant mock \| ${num} s · peak RSS \d+ MB · \d+ tasks/s \| goal 0\.80 s · 100 MB \| ${num}× time · ${num}× RSS \|`),
      new RegExp(String.raw`^\| the same 100-task evaluation again \(baseline from cache\) \| ${num} s · 0 engine calls · .* \| loading the suite alone \(a process\) ${num} s \| ${num}× \| ≤ 1\.5× \|`),
      new RegExp(String.raw`^\| \`whet view\` until its URL is printed \| ${num} s \| goal 1\.00 s \| ${num}× \| ≤ 1× \|`),
      new RegExp(String.raw`^\| 100-task outputs page in headless Chromium, navigation start until usable \| (${num} s · a filter over all 100 rows \d+ ms|skipped: no Chromium at .*) \| goal 1\.00 s \| (${num}×|—) \| ≤ 1× \|`),
      new RegExp(String.raw`^\| \`/api/run-list\` at 50 runs, a page of 50 \(every run read once first: ${num} s\) \| \d+ ms( · \d+ ms CPU)? \| goal 200 ms \| ${num}× \| ≤ 1× \|`),
      new RegExp(String.raw`^\| runs page at 50 runs in headless Chromium, navigation start until usable \| (${num} s|skipped: no Chromium at .*) \| goal 2\.00 s \| (${num}×|—) \| ≤ 1× \|`),
      new RegExp(String.raw`^\| \`whet view\` idle at 50 runs with the runs page open \(CPU share of one core\) \| (\d+\.\d%|skipped: .*) \| goal 2% of a core \| (${num}×|—) \| ≤ 1× \|`),
      new RegExp(String.raw`^\| 200 tasks, instant mock \| .* \| goal 5\.00 s · 160 MB \|`),
      new RegExp(String.raw`^\| \`whet status\` of a 100-task loop run \(1 run, ${num} s to make\) \| first ${num} s · \d+ ms CPU · \d+ MB; again \(verified files remembered\) ${num} s · \d+ ms CPU · \d+ MB \| bare \`node -e 0\` ${num} s \| ${num}× first · ${num}× again \| reported \(issue 43\) \|`),
      ...['`whet --version`', '`whet --help`', '`whet status`', '`whet show RUN`'].map((c) => new RegExp(String.raw`^\| ${c} \| ${num} s · \d+ MB \| bare \`node -e 0\` ${num} s · \d+ MB \| ${num}× \| ≤ [23]× \|`)),
      ...['default config', 'max_concurrency: 16'].map(
        (c) => new RegExp(String.raw`^\| 64 tasks, loopback server at 20 ms, \`--concurrency 16\`, ${c} \| task phase ${num} s \(efficiency ${num}\) · \d+ in flight at the server · CPU ${num} ms/call · end to end ${num} s \(${num}× the ideal\) · process CPU ${num} s \| ideal 0\.08 s \(⌈64/16⌉ × 20 ms\) \| ${num}× \| end to end ≤ 1\.5×;`),
      ),
      new RegExp(String.raw`^\| the same 64 requests sent alone, through whetstone's HTTP transport \(no evaluation around them\) \| CPU ${num} ms/call · ${num} s \(efficiency ${num}\) \| ideal 0\.08 s \(⌈64/16⌉ × 20 ms\) \| ${num}× \| reference: the floor of the rows above \|`),
    ];
    expect(rows).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(rows[i]).toMatch(re));
  }, 300_000);

  it('measures the HTTP rows alone with --only http, each the median of --http-repeat runs', () => {
    const args = ['--only', 'http', '--latency-tasks', '32', '--latency-ms', '20', '--concurrency', '8', '--http-repeat', '3'];
    const r = spawnSync(process.execPath, [join(repoRoot, 'dist/scripts/bench.js'), ...args], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('| '));
    const num = String.raw`\d+\.\d\d`;
    expect(rows[0]).toBe('| case | measured | reference | ratio | goal |');
    expect(rows.slice(1)).toHaveLength(3);
    for (const [i, c] of ['default config', 'max_concurrency: 8'].entries()) {
      expect(rows[i + 1]).toMatch(new RegExp(String.raw`^\| 32 tasks, loopback server at 20 ms, \`--concurrency 8\`, ${c} \| task phase .* · end to end ${num} s \(${num}× the ideal\) · process CPU ${num} s \(median of 3\) \| ideal 0\.08 s`));
    }
    expect(rows[3]).toMatch(/^\| the same 32 requests sent alone/);
    expect(spawnSync(process.execPath, [join(repoRoot, 'dist/scripts/bench.js'), '--only', 'view'], { encoding: 'utf8' }).stderr).toMatch(/--only takes http, large or status \(comma-separated\), not view/);
  }, 120_000);
});
