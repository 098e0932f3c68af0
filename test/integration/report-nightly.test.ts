// `whet report` of a nightly run: the night-vs-previous-night comparison from the day file's drift record
// (json, md), and a trend of this target's nights only when one skill is measured with two suites.
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readJson, repoRoot, whet } from '../support/cli.js';
import { EXPECTED, nightlyProject, twoNights, type NightRun } from '../fixtures/report/nightly-project.js';

let dir = '';
let nights: [NightRun, NightRun];

beforeAll(async () => {
  dir = nightlyProject();
  nights = await twoNights(dir);
}, 60_000);

const report = async (run: string, format: string) => {
  const r = await whet(['report', run, '--format', format], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};

describe('whet report of a nightly run', () => {
  it('carries the night-vs-previous-night comparison in json, with the counts of the drift record', async () => {
    const [n1, n2] = nights;
    const main = n2.targets[0]!;
    const m = JSON.parse(await report(main.run_id, 'json'));
    expect(m.system.paired).toBeNull();
    expect(m.nightly).toMatchObject({ date: '2026-11-02', file: '2026-11-02.json', target_key: main.target_key, method: 'exact McNemar', alert: main.drift.alert, cause: 'skill changed, suite and engine unchanged', p_value: main.drift.p_value, ...EXPECTED });
    expect(m.nightly.compared_with).toBe(`2026-11-01 (${n1.targets[0]!.run_id})`);
    expect(m.nightly.per_category.find((c: any) => c.category === 'cite')).toEqual({ category: 'cite', tasks: 3, before: 1, after: 0, change: -1 });
    // The first night of a target has nothing to compare with, and says so.
    const first = JSON.parse(await report(n1.targets[0]!.run_id, 'json'));
    expect(first.nightly).toMatchObject({ date: '2026-11-01', compared_with: null, tasks_compared: 0, cause: 'first night for this target' });
  });

  it('writes the comparison into the markdown report', async () => {
    const md = await report(nights[1].targets[0]!.run_id, 'md');
    expect(md).toContain('### Paired comparison: tonight vs the previous night');
    expect(md).toMatch(/on 8 task\(s\) judged both nights: both pass 2, both fail 1, fixed 2 \(`o1`, `o2`\), regressed 3 \(`c1`, `c2`, `c3`\); exact McNemar p = 1\.0000; pass rate change -0\.1250\./);
    expect(md).toContain('What changed since: skill changed, suite and engine unchanged.');
  });

  it('keeps each suite of the same skill in its own trend (matched by target key)', async () => {
    const [, n2] = nights;
    const main = JSON.parse(await report(n2.targets[0]!.run_id, 'json'));
    expect(main.trend.source).toBe('nightly');
    expect(main.trend.points.map((p: any) => [p.label, p.passed, p.judged])).toEqual([['2026-11-01', 5, 8], ['2026-11-02', 4, 8]]);
    const other = JSON.parse(await report(n2.targets[1]!.run_id, 'json'));
    expect(other.trend.points.map((p: any) => [p.label, p.passed, p.judged])).toEqual([['2026-11-01', 0, 1], ['2026-11-02', 0, 1]]);
  });

  it('puts the comparison in the JUnit report: properties, and a drift test case that passes without an alert', async () => {
    const [n1, n2] = nights;
    const main = n2.targets[0]!;
    expect(main.drift.alert).toBe(false);
    const xml = await report(main.run_id, 'junit');
    const file = join(dir, 'night.junit.xml');
    (await import('node:fs')).writeFileSync(file, xml);
    const v = spawnSync('xmllint', ['--noout', '--schema', join(repoRoot, 'test/fixtures/report/junit.xsd'), file], { encoding: 'utf8' });
    expect(v.status, v.stderr).toBe(0);
    expect(xml).toContain(`<property name="whetstone.nightly.compared_with" value="2026-11-01 (${n1.targets[0]!.run_id})"/>`);
    expect(xml).toContain(`<property name="whetstone.nightly.fixed" value="${EXPECTED.fixed}"/>`);
    expect(xml).toContain(`<property name="whetstone.nightly.regressed" value="${EXPECTED.regressed}"/>`);
    expect(xml).toContain('<property name="whetstone.nightly.alert" value="none"/>');
    expect(xml).toMatch(/<testsuite name="nightly comparison" [^>]*tests="1" failures="0" errors="0"/);
  });

  it('exports the nightly section in the report schema', async () => {
    const out = join(dir, 'schemas');
    expect((await whet(['schemas', '--out', out], { cwd: dir })).code).toBe(0);
    const files = (await import('node:fs')).readdirSync(out);
    const schema = readJson(join(out, files.find((f) => f.includes('report'))!));
    expect(Object.keys(schema.properties.nightly.anyOf[0].properties)).toEqual(expect.arrayContaining(['tasks_compared', 'both_pass', 'regressed', 'p_value', 'cause', 'alert']));
  });
});

describe('whet report --nightly', () => {
  it('reports the newest night with one section per target, each with its trend and comparison', async () => {
    const [, n2] = nights;
    const md = (await whet(['report', '--nightly'], { cwd: dir })).stdout;
    expect(md).toMatch(/^# whetstone nightly report — 2026-11-02\n\n2 target\(s\) from `nightly\/2026-11-02\.json`\.\n\nNo drift alert\./);
    const sections = md.split('\n## ').slice(1);
    expect(sections.map((x) => x.split('\n')[0])).toEqual([expect.stringMatching(/\/skills\/notes \\\[suite tasks\.yaml, target \w{8}\\\]$/), expect.stringMatching(/\/skills\/notes \\\[suite tasks-b\.yaml, target \w{8}\\\]$/)]);
    expect(sections[0]).toContain(`Run \`${n2.targets[0]!.run_id}\`: pass rate 0.5000 (4/8 judged)`);
    expect(sections[0]).toMatch(/both pass 2, both fail 1, fixed 2 .*regressed 3/);
    expect(sections[0]).toContain('### Nightly trend');
    expect(sections[1]).toContain('pass rate 0.0000 (0/1 judged)');
    expect(sections[1]).toMatch(/on 1 task\(s\) judged both nights: both pass 0, both fail 1, fixed 0, regressed 0/);
    const html = (await whet(['report', '--nightly', '--format', 'html'], { cwd: dir })).stdout;
    expect(html.match(/data-testid="night-target"/g)).toHaveLength(2);
    expect(html.match(/data-testid="trend-chart"/g)).toHaveLength(2);
    expect(html.match(/data-testid="night-matrix"/g)).toHaveLength(2);
    expect(html).not.toContain('<script');
  });

  it('reports the night of a given date, as json too, and refuses a run id, junit or a bad date', async () => {
    const [n1] = nights;
    const r = await whet(['report', '--nightly', '2026-11-01', '--format', 'json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ schema: 'whetstone.nightly-report/1', date: '2026-11-01', file: '2026-11-01.json', alert: false });
    expect(j.targets.map((t: any) => [t.run_id, t.report.nightly.cause])).toEqual(n1.targets.map((t) => [t.run_id, 'first night for this target']));
    expect((await whet(['report', n1.targets[0]!.run_id, '--nightly'], { cwd: dir })).code).toBe(2);
    expect((await whet(['report', '--nightly', '--format', 'junit'], { cwd: dir })).code).toBe(2);
    expect((await whet(['report', '--nightly', 'yesterday'], { cwd: dir })).code).toBe(2);
    expect((await whet(['report', '--nightly', '2026-10-01'], { cwd: dir })).stderr).toMatch(/no nightly report for 2026-10-01/);
  });
});
