// Issue 39: every CI file `whet schedule print` writes installs whet from a source that exists (the
// project's own dependency, or the --package spec the user names) or is refused with the flag to add; and
// no step, job or container other than those running whet sees an engine key. Checked on the parsed files
// (GitHub's parser, GitLab's schema, kubernetes-models), never by matching the text alone. Running the
// printed jobs, their installs against the packed tarball included, is in schedule-install-run-*.test.ts.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { Ajv } from 'ajv';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { tempDir, whet, write } from '../support/cli.js';

const require = createRequire(import.meta.url);
const gitlabSchema = require(join(require.resolve('gitlab-ci-local/package.json'), '..', 'src', 'schema', 'schema.json')) as object;
const validateCi = new Ajv({ allErrors: true, allowUnionTypes: true, validateFormats: false, strictTypes: false, keywords: ['markdownDescription'] }).compile(gitlabSchema);

const KEYS = ['TEAM_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'];

function project(o: { dependency?: boolean; tarball?: boolean } = {}): { dir: string; cwd: string } {
  const dir = tempDir('whet-sched-install-');
  mkdirSync(join(dir, '.git'));
  write(join(dir, 'proj', 'pipeline.yaml'), 'state_dir: state\nengine: {type: openai, model: m, api_key_env: TEAM_KEY}\n');
  if (o.dependency) write(join(dir, 'proj', 'package.json'), JSON.stringify({ name: 'skills', devDependencies: { whetstone: 'file:vendor/whetstone-0.1.0.tgz' } }));
  if (o.tarball) write(join(dir, 'vendor', 'whetstone-0.1.0.tgz'), 'not read by print');
  return { dir, cwd: join(dir, 'proj') };
}

/** What runs whet: a shell line starting with the job's whet command (after `verdict=0;`). */
const runsWhet = (line: string) => /^(verdict=0; )?(whet|npx --no-install whet|\.whetstone\/bin\/whet|\/opt\/whetstone\/bin\/whet) /.test(line.trim());

async function github(cwd: string, extra: string[]) {
  const r = await whet(['schedule', 'print', '--via', 'github', ...extra], { cwd });
  expect(r.code, r.stderr).toBe(0);
  const text = r.stdout.slice(r.stdout.indexOf('# whetstone nightly'));
  const parsed = parseWorkflow({ name: 'w.yml', content: text }, new NoOperationTraceWriter());
  const template = parsed.value ? await convertWorkflowTemplate(parsed.context, parsed.value) : undefined;
  expect([...parsed.context.errors.getErrors().map((e) => e.message), ...(template?.errors ?? []).map((e) => e.Message)]).toEqual([]);
  return parse(text) as { env?: unknown; jobs: Record<string, { env?: unknown; steps: { name?: string; uses?: string; run?: string; env?: Record<string, string>; with?: unknown }[] }> };
}

/** Every step that is handed a secret runs whet and nothing else; every key reaches the steps running whet nightly. */
function checkGithubKeys(wf: Awaited<ReturnType<typeof github>>): void {
  expect(wf.env, 'no workflow-level env').toBeUndefined();
  let nightlySteps = 0;
  for (const [id, job] of Object.entries(wf.jobs)) {
    expect(job.env, `job ${id} has no job-level env`).toBeUndefined();
    for (const step of job.steps) {
      const secrets = JSON.stringify(step).match(/secrets\.\w+/g) ?? [];
      if (secrets.length === 0) continue;
      expect(step.uses, `${step.name}: an action never gets a key`).toBeUndefined();
      const lines = (step.run ?? '').split('\n').filter((l) => l.trim());
      expect(lines.length).toBeGreaterThan(0);
      for (const l of lines) expect(runsWhet(l), `step "${step.name}" has a key and runs: ${l}`).toBe(true);
      expect(Object.keys(step.env ?? {}).sort()).toEqual([...KEYS].sort());
      if (/nightly/.test(step.run ?? '')) nightlySteps++;
    }
  }
  expect(nightlySteps).toBeGreaterThan(0);
}

describe('whet schedule print: an install that exists', () => {
  it('refuses a project that neither lists whetstone nor names --package, saying which flag to add', async () => {
    const p = project();
    for (const extra of [['--via', 'github'], ['--via', 'github', '--shards', '2'], ['--via', 'gitlab', '--shards', '2'], ['--via', 'k8s', '--shards', '2']]) {
      const r = await whet(['schedule', 'print', ...extra], { cwd: p.cwd });
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/does not list whetstone.*add --package SPEC/);
      expect(r.stdout).toBe('');
    }
    // Removing needs no install: never refused for want of --package.
    expect((await whet(['schedule', 'remove', '--via', 'github'], { cwd: p.cwd })).code).toBe(0);
    // A missing tarball, one outside the repository, a spec with a shell character: refused before printing.
    expect((await whet(['schedule', 'print', '--via', 'github', '--package', '../vendor/nope.tgz'], { cwd: p.cwd })).stderr).toMatch(/no file at/);
    const outside = write(join(tempDir('whet-outside-'), 'whetstone-0.1.0.tgz'), 'x');
    expect((await whet(['schedule', 'print', '--via', 'github', '--package', outside], { cwd: p.cwd })).stderr).toMatch(/outside the repository/);
    expect((await whet(['schedule', 'print', '--via', 'github', '--package', 'x@1;rm -rf ~'], { cwd: p.cwd })).code).toBe(2);
    // cron and systemd run this very install: --package there is refused, not ignored.
    expect((await whet(['schedule', 'print', '--via', 'cron', '--package', 'x@1'], { cwd: p.cwd })).stderr).toMatch(/--package .* github, gitlab or k8s/);
  });

  it('github: the --package tarball, relative to the job folder; keys only in the steps running whet', async () => {
    const p = project({ tarball: true });
    for (const shards of [[], ['--shards', '3']]) {
      const wf = await github(p.cwd, ['--package', '../vendor/whetstone-0.1.0.tgz', ...shards]);
      checkGithubKeys(wf);
      for (const job of Object.values(wf.jobs).filter((j) => j.steps.some((s) => /whet /.test(s.run ?? '')))) {
        const install = job.steps.find((s) => s.name === 'Install whetstone')!;
        expect(install.env).toEqual({ WHETSTONE_PACKAGE: '../vendor/whetstone-0.1.0.tgz' });
        expect(install.run).toBe('npm install -g "$WHETSTONE_PACKAGE"');
      }
      expect(JSON.stringify(wf)).not.toMatch(/whetstone@\d/);
    }
    // A git URL and a registry version the user publishes are taken as given.
    const git = await github(p.cwd, ['--package', 'git+https://example.org/me/whetstone.git#v0.1.0']);
    expect(git.jobs.nightly!.steps.find((s) => s.name === 'Install whetstone')!.env).toEqual({ WHETSTONE_PACKAGE: 'git+https://example.org/me/whetstone.git#v0.1.0' });
    const reg = await github(p.cwd, ['--package', '@me/whetstone@0.1.0']);
    expect(reg.jobs.nightly!.steps.find((s) => s.name === 'Install whetstone')!.env).toEqual({ WHETSTONE_PACKAGE: '@me/whetstone@0.1.0' });
  });

  it('github: a project listing whetstone runs npm ci (no key) and the installed whet only', async () => {
    const p = project({ dependency: true });
    const wf = await github(p.cwd, []);
    checkGithubKeys(wf);
    const steps = wf.jobs.nightly!.steps;
    expect(steps.find((s) => s.run === 'npm ci')!.env).toBeUndefined();
    expect(steps.find((s) => s.name === 'whet nightly')!.run!.trim()).toBe("npx --no-install whet nightly -c 'pipeline.yaml'");
  });

  it('the check can fail: a key moved back to the job level, or onto the install step, is caught', async () => {
    const p = project({ dependency: true });
    const wf = await github(p.cwd, []);
    const onInstall = structuredClone(wf);
    onInstall.jobs.nightly!.steps.find((s) => s.run === 'npm ci')!.env = { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' };
    expect(() => checkGithubKeys(onInstall)).toThrow(/has a key and runs: npm ci/);
    const jobLevel = structuredClone(wf);
    jobLevel.jobs.nightly!.env = { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' };
    expect(() => checkGithubKeys(jobLevel)).toThrow(/job-level env/);
  });

  it('gitlab: an install job with no environment, whet jobs in the environment the keys are scoped to', async () => {
    for (const o of [{ tarball: true }, { dependency: true }]) {
      const p = project(o);
      const r = await whet(['schedule', 'print', '--via', 'gitlab', '--shards', '2', ...(o.tarball ? ['--package', '../vendor/whetstone-0.1.0.tgz'] : [])], { cwd: p.cwd });
      expect(r.code, r.stderr).toBe(0);
      const ci = parse(r.stdout) as Record<string, any>;
      expect(validateCi(ci), JSON.stringify(validateCi.errors)).toBe(true);
      expect(r.stdout).toMatch(/Environment scope whetstone-nightly/);
      const install = ci['whetstone-install'];
      expect(install.environment).toBeUndefined();
      expect(install.script).toEqual(["cd 'proj'", o.tarball ? 'npm install -g --prefix "$CI_PROJECT_DIR/proj/.whetstone" "$WHETSTONE_PACKAGE"' : 'npm ci']);
      expect(install.artifacts.paths).toEqual([o.tarball ? 'proj/.whetstone/' : 'proj/node_modules/']);
      if (o.tarball) expect(install.variables).toEqual({ WHETSTONE_PACKAGE: '../vendor/whetstone-0.1.0.tgz' });
      for (const id of ['whetstone-shard', 'whetstone-merge']) {
        const job = ci[id];
        expect(job.environment).toEqual({ name: 'whetstone-nightly' });
        expect(job.needs).toContainEqual({ job: 'whetstone-install', artifacts: true });
        for (const line of job.script as string[]) expect(line === "cd 'proj'" || line === 'exit "$verdict"' || runsWhet(line), `${id}: ${line}`).toBe(true);
      }
      // Only the install job installs: the jobs the keys reach never run npm.
      expect(JSON.stringify([ci['whetstone-shard'].script, ci['whetstone-merge'].script])).not.toMatch(/npm (ci|install)/);
      expect(JSON.stringify(ci)).not.toMatch(/whetstone@\d/);
    }
  });

  it('k8s: the Secret only in the containers running whet; a --package install in an init container without it', async () => {
    for (const o of [{ tarball: true }, { dependency: true }]) {
      const p = project(o);
      const r = await whet(['schedule', 'print', '--via', 'k8s', '--shards', '2', ...(o.tarball ? ['--package', '../vendor/whetstone-0.1.0.tgz'] : [])], { cwd: p.cwd });
      expect(r.code, r.stderr).toBe(0);
      const docs = parseAllDocuments(r.stdout).map((d) => d.toJSON() as any);
      const jobs = docs.filter((d) => d.kind === 'CronJob');
      expect(jobs.length).toBe(2);
      for (const doc of jobs) {
        new CronJob(doc).validate();
        const pod = doc.spec.jobTemplate.spec.template.spec;
        for (const c of pod.containers) {
          expect(c.envFrom).toEqual([{ secretRef: { name: 'whetstone-engine-keys', optional: true } }]);
          expect(c.command[2]).toMatch(o.tarball ? /\/opt\/whetstone\/bin\/whet nightly/ : /npx --no-install whet nightly/);
          expect(c.command[2]).not.toMatch(/npm (ci|install)/);
        }
        for (const c of pod.initContainers ?? []) expect(JSON.stringify(c), c.name).not.toMatch(/secret|envFrom/i);
        const installer = (pod.initContainers ?? []).find((c: { name: string }) => c.name === 'install-whetstone');
        if (o.tarball) {
          // The pod starts in the image's folder, the repository root: the tarball's path from there.
          expect(installer.env).toEqual([{ name: 'WHETSTONE_PACKAGE', value: './vendor/whetstone-0.1.0.tgz' }]);
          expect(installer.command[2]).toBe('npm install -g --prefix /opt/whetstone "$WHETSTONE_PACKAGE"');
        } else expect(installer).toBeUndefined();
      }
    }
  });
});
