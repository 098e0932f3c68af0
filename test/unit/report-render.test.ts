// The renderers: the markdown evidence report (judge and system metrics apart, ending with the evidence,
// never a verdict word; artifact text escaped), JUnit XML (one suite per variant, counts, escaping,
// valid against the common schema), and the offline HTML page (no external fetch, escaped user data, the
// filter script allowed by its hash and nothing else).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReportModel } from '../../src/report/model.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderJunit, xmlAttr } from '../../src/report/render-junit.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import { FILTER_SCRIPT } from '../../src/report/html-parts.js';
import { repoRoot, tempDir } from '../support/cli.js';
import { anchorCalibration, inputs, iteration, pipeline, result, standalone } from '../fixtures/report/artifacts.js';

const EVIL = `<script>window.__pwned = 1</script> a|b \`tick\` & "quote" 'apos' \u0007bell`;
const cand = [result('t1', 'x', 'pass'), result('t2', 'x', 'fail', EVIL), result('t3', 'y', 'error', 'engine died <b>'), result('t4', 'y', 'pass')];
const base = [result('t1', 'x', 'fail'), result('t2', 'x', 'fail'), result('t3', 'y', 'pass'), result('t4', 'y', 'pass')];
const manifest = { run_id: 'run-7', mode: 'loop', status: 'completed', created_at: '2026-11-30T07:40:12.345Z', thresholds: { min_delta: 0, max_new_failures: 0 }, thresholds_sha256: `sha256:${'c'.repeat(64)}` };
const gate = { decision: 'reject', candidate_id: 'cand-01', reason: 'a regression', checks: [{ id: 'holdout_gain', passed: true, detail: '+0.25' }, { id: 'new_failures', passed: false, detail: '1 task(s) that passed now fail; at most 0' }] };
const candidates = { candidates: [{ id: 'cand-01', title: 'Add a rule', category: 'coverage', risk: 'low', rationale: 'why', diff: '--- a/SKILL.md\n+++ b/SKILL.md\n@@ -1,2 +1,2 @@\n keep\n-old <line>\n+new <line>\n', diff_stats: { added: 1, removed: 1 } }] };
const its = [iteration(1, { evaluation: pipeline(cand, base), gate, candidates, learning: { proposed_cases: { file: 'proposed-cases.yaml', count: 2 }, stop: { stop: false } } })];

describe('markdown report', () => {
  const md = renderMarkdown(buildReportModel(inputs({ manifest, iterations: its, calibrations: [anchorCalibration()] })));

  it('keeps judge metrics and system metrics in separate sections and ends with the evidence', () => {
    const heads = md.split('\n').filter((l) => l.startsWith('## '));
    expect(heads).toEqual(['## Decision', '## Eval set', '## Judge metrics (agreement with people)', '## Thresholds (set before results)', '## Plan', '## Gates', '## System metrics (what the skill does)', '## The candidate', '## Iterations', '## Fed back as new cases', '## Evidence']);
    const tail = md.trimEnd().split('\n');
    expect(tail[tail.length - 1]).toBe('- fed back: 2 new cases proposed from failures for review');
    expect(md.trimEnd()).not.toMatch(/\b(pass|fail|PASS|FAIL|keep|reject)\.?$/);
  });

  it('gives each judge’s four metrics with the positive class, the answer key and the bias with counts', () => {
    expect(md).toContain('| release-notes-rubric (mock engine) | no | FAIL | 80 | 44 | 21 | 9 | 6 | 0.8800 | 0.7000 | 0.8125 | 0.8302 |');
    expect(md).toContain('harsh — wrongly failed 9/30 (0.3000) against wrongly passed 6/50 (0.1200)');
    expect(md).toContain(`hash \`sha256:${'c'.repeat(64)}\``);
    expect(md).toContain('| new_failures | **failed** | 1 task(s) that passed now fail; at most 0 |');
    expect(md).toContain('- gates: 2 of 3 checks passed; failed: new_failures (gate decision: reject)');
    // One count of checks: the Gates section says what the evidence list says (issue 28 §4).
    const counts = [...md.matchAll(/(\d+) of (\d+) checks passed/g)].map((x) => `${x[1]}/${x[2]}`);
    expect(counts.length).toBeGreaterThan(1);
    expect(new Set(counts)).toEqual(new Set(['2/3']));
  });

  it('gives per-category rates with counts and intervals, errors apart, the paired comparison and the top failure category', () => {
    expect(md).toContain('| x | 0.5000 (1/2) [0.0945, 0.9055] | 0.0000 (0/2) [0.0000, 0.6576] | +0.5000 |');
    expect(md).toContain('| y | 1.0000 (1/1, 1 error) [0.2065, 1.0000] | 1.0000 (2/2) [0.3424, 1.0000] | +0.0000 |');
    expect(md).toContain('- `t3` (candidate): engine died \\<b\\>');
    expect(md).toMatch(/both pass 1, both fail 1, fixed 1 \(`t1`\), regressed 0/);
    expect(md).toContain('Top failure category: **x** — 1 of 2 judged tasks failed (candidate).');
  });

  it('escapes artifact text so a reason cannot break a table, open raw HTML or close the diff fence', () => {
    expect(md).not.toContain('<script>');
    expect(md).toContain('\\<script\\>window.__pwned = 1\\</script\\> a\\|b \\`tick\\`');
    expect(md).toContain('```diff\n--- a/SKILL.md');
  });

  it('says plainly when no judge is calibrated', () => {
    const plain = renderMarkdown(buildReportModel(inputs({ evaluation: standalone(cand) })));
    expect(plain).toContain('No judge is calibrated');
    expect(plain).toContain('- judges: none calibrated (answer key size 0)');
  });
});

describe('JUnit XML', () => {
  const xml = renderJunit(buildReportModel(inputs({ manifest, iterations: its })));

  it('has one suite per variant with its counts, a testcase per task, failures and errors apart', () => {
    const suites = [...xml.matchAll(/<testsuite name="([^"]+)"[^>]* tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)" time="([\d.]+)"/g)].map((m) => m.slice(1, 6));
    expect(suites).toEqual([
      ['candidate cand-01', '4', '1', '1', '0'],
      ['baseline', '4', '2', '0', '0'],
    ]);
    expect(xml.match(/<testcase /g)).toHaveLength(8);
    expect(xml).toContain('<error message="engine died &lt;b&gt;" type="whetstone.error">');
    expect(xml).toContain('timestamp="2026-11-30T07:40:12"');
  });

  it('escapes markup, quotes and characters XML cannot carry', () => {
    expect(xml).not.toContain('<script>');
    expect(xml).toContain('message="&lt;script&gt;window.__pwned = 1&lt;/script&gt; a|b `tick` &amp; &quot;quote&quot; &apos;apos&apos; \uFFFDbell"');
    expect(xmlAttr('a\nb\tc')).toBe('a&#10;b&#9;c');
  });

  it('validates against the JUnit schema CI tools read (xmllint), which rejects a broken document', () => {
    const dir = tempDir('whet-junit-');
    const xsd = join(repoRoot, 'test/fixtures/report/junit.xsd');
    writeFileSync(join(dir, 'ok.xml'), xml);
    writeFileSync(join(dir, 'bad.xml'), xml.replace(/ type="whetstone.fail"/, ''));
    const ok = spawnSync('xmllint', ['--noout', '--schema', xsd, join(dir, 'ok.xml')], { encoding: 'utf8' });
    expect(ok.error, 'xmllint (Debian libxml2-utils) must be installed').toBeUndefined();
    expect(ok.status, ok.stderr).toBe(0);
    const bad = spawnSync('xmllint', ['--noout', '--schema', xsd, join(dir, 'bad.xml')], { encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/type.*required|fails to validate/);
  });
});

describe('JUnit report of a nightly run', () => {
  const night = (over: Record<string, unknown>) => {
    const m = buildReportModel(inputs({ manifest: { ...manifest, mode: 'nightly' }, evaluation: standalone(base) }));
    m.nightly = {
      date: '2026-11-02', file: '2026-11-02.json', target_key: 'k', label: 'skills/notes', compared_with: '2026-11-01 (run-6)',
      tasks_compared: 8, both_pass: 2, both_fail: 1, fixed: 0, regressed: 5, fixes: [], regressions: ['c1', 'c2', 'c3', 'c4', 'c5'],
      p_value: 0.0625, method: 'exact McNemar', pass_rate_change: -0.625,
      per_category: [{ category: 'cite', tasks: 3, before: 1, after: 0, change: -1 }],
      critical_failures: ['c1'], engine_failed: false, changed: null, cause: 'engine changed, skill and suite unchanged',
      alert: true, reasons: ['critical task c1 failed tonight'], ...over,
    };
    return renderJunit(m);
  };
  const valid = (xml: string) => {
    const file = join(tempDir('whet-junit-night-'), 'night.xml');
    writeFileSync(file, xml);
    const v = spawnSync('xmllint', ['--noout', '--schema', join(repoRoot, 'test/fixtures/report/junit.xsd'), file], { encoding: 'utf8' });
    expect(v.error, 'xmllint (Debian libxml2-utils) must be installed').toBeUndefined();
    expect(v.status, v.stderr).toBe(0);
  };

  it('carries tonight vs last night as properties, and fails a test case on a drift alert', () => {
    const xml = night({});
    valid(xml);
    expect(xml).toContain('<property name="whetstone.nightly.compared_with" value="2026-11-01 (run-6)"/>');
    expect(xml).toContain('<property name="whetstone.nightly.regressed" value="5"/>');
    expect(xml).toContain('<property name="whetstone.nightly.mcnemar_p" value="0.0625"/>');
    expect(xml).toContain('<property name="whetstone.nightly.alert" value="drift"/>');
    expect(xml).toContain('<property name="whetstone.nightly.category.cite" value="1.0000 → 0.0000 (-1.0000) on 3 task(s)"/>');
    const suite = xml.slice(xml.indexOf('<testsuite name="nightly comparison"'));
    expect(suite).toMatch(/tests="1" failures="1" errors="0"/);
    expect(suite).toMatch(/<testcase name="drift vs 2026-11-01 \(run-6\)" classname="whetstone.nightly" time="0.000">\n {6}<failure message="critical task c1 failed tonight" type="whetstone.drift">/);
  });

  it('passes the test case without an alert, and reports an engine failure as an error', () => {
    const calm = night({ alert: false, reasons: [], critical_failures: [] });
    valid(calm);
    expect(calm).toContain('<property name="whetstone.nightly.alert" value="none"/>');
    expect(calm).toMatch(/<testcase name="drift vs 2026-11-01 \(run-6\)" classname="whetstone.nightly" time="0.000"\/>/);
    expect(calm).not.toContain('type="whetstone.drift"');
    const failed = night({ engine_failed: true, reasons: ['every task errored'] });
    valid(failed);
    expect(failed).toMatch(/failures="0" errors="1" skipped="0" time="0.000">[\s\S]*<error message="every task errored" type="whetstone.engine_failed">/);
  });
});

describe('HTML report', () => {
  const html = renderHtml(buildReportModel(inputs({ manifest, iterations: its, calibrations: [anchorCalibration()] })));

  it('is one offline file: nothing fetched, only its own script allowed, by hash', () => {
    expect(html).not.toMatch(/\b(src|href)\s*=/i);
    expect(html).not.toMatch(/https?:\/\//);
    const hash = createHash('sha256').update(FILTER_SCRIPT).digest('base64');
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!.replace(/&#39;/g, "'");
    expect(csp).toContain(`script-src 'sha256-${hash}'`);
    expect(csp).toContain("default-src 'none'");
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toContain(`<script>${FILTER_SCRIPT}</script>`);
  });

  it('escapes user data everywhere it appears', () => {
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('<span class="del">-old &lt;line&gt;</span><span class="add">+new &lt;line&gt;</span>');
  });

  it('carries the numbers in data attributes: paired counts, confusion matrix, category bars, rows by status', () => {
    expect(html).toContain('data-testid="paired-fixed" data-count="1"');
    expect(html).toContain('data-testid="paired-both-fail" data-count="1"');
    expect(html).toContain('data-testid="cm-tp" data-count="44"');
    expect(html).toContain('data-testid="cm-fp" data-count="9"');
    expect(html).toMatch(/data-testid="category-bar" data-category="x" data-role="candidate" data-rate="0.5000" data-passed="1" data-judged="2"/);
    expect(html.match(/data-testid="task-row"[^>]*data-status="fail"/g)).toHaveLength(1);
  });
});
