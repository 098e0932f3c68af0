// `whet schedule … --via github --shards N` (issue 16): the sharded nightly workflow is checked by GitHub's
// own parser and schema (@actions/workflow-parser), not by string matching: a plan job, a matrix of N
// shard jobs with fail-fast off that upload their shards, and a merge job that downloads them, merges,
// reports and saves the state; engine keys only as secrets references.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { tempDir, whet, write } from '../support/cli.js';

async function validate(content: string) {
  const parsed = parseWorkflow({ name: 'whetstone-nightly-shards.yml', content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  const template = parsed.value ? await convertWorkflowTemplate(parsed.context, parsed.value) : undefined;
  return { errors: [...errors, ...(template?.errors ?? []).map((e) => e.Message)], template };
}

function project(): { dir: string; cwd: string } {
  const dir = tempDir('whet-sched-shards-');
  mkdirSync(join(dir, '.git'));
  write(join(dir, 'proj', 'pipeline.yaml'), 'state_dir: state\nengine: {type: anthropic, model: claude-x, api_key_env: TEAM_ANTHROPIC_KEY}\n');
  return { dir, cwd: join(dir, 'proj') };
}

describe('whet schedule --via github --shards N', () => {
  it('prints a workflow GitHub’s parser accepts: plan, N shard jobs, merge', async () => {
    const p = project();
    const r = await whet(['schedule', 'print', '--via', 'github', '--shards', '4', '--package', '@team/whetstone@0.1.0'], { cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    const text = r.stdout.slice(r.stdout.indexOf('# whetstone nightly'));
    const { errors, template } = await validate(text);
    expect(errors).toEqual([]);
    const jobs = (template as unknown as { jobs: { id: { value: string } }[] }).jobs.map((j) => j.id.value);
    expect(jobs).toEqual(['plan', 'shard', 'merge']);
    const wf = parse(text) as any;
    expect(wf.jobs.shard.strategy['fail-fast']).toBe(false);
    expect(wf.jobs.shard.needs).toBe('plan');
    expect(wf.jobs.merge.needs).toEqual(['plan', 'shard']);
    const uses = (job: string) => wf.jobs[job].steps.map((s: { uses?: string }) => s.uses).filter(Boolean);
    expect(uses('shard')).toContain('actions/upload-artifact@v4');
    expect(uses('merge')).toEqual(expect.arrayContaining(['actions/download-artifact@v4', 'actions/cache/save@v4', 'actions/upload-artifact@v4']));
    const runs = (job: string) => wf.jobs[job].steps.map((s: { run?: string }) => s.run ?? '').join('\n');
    expect(runs('shard')).toMatch(/whet nightly .*--shard "\$\{\{ matrix.shard \}\}\/4"/);
    expect(runs('merge')).toMatch(/whet nightly .*--merge whetstone-shards\/\*/);
    expect(runs('plan')).toContain('[1,2,3,4]');
    // A project that does not list whetstone installs the --package spec in every job that runs it, never `npx whet`.
    for (const job of ['shard', 'merge']) {
      expect(runs(job)).toContain('npm install -g "$WHETSTONE_PACKAGE"');
      expect(runs(job)).not.toContain('npx whet');
    }
    // Keys: the variable the config names, from the secret of that name, in the steps running whet nightly only.
    const keyed = (job: string) => wf.jobs[job].steps.filter((s: { env?: Record<string, string> }) => s.env?.TEAM_ANTHROPIC_KEY === '${{ secrets.TEAM_ANTHROPIC_KEY }}');
    expect(keyed('shard').map((s: { name: string }) => s.name)).toEqual(['whet nightly --shard ${{ matrix.shard }}/4']);
    expect(keyed('merge').map((s: { name: string }) => s.name)).toEqual([expect.stringMatching(/^whet nightly --merge/)]);
    expect(wf.jobs.shard.env).toBeUndefined();
  });

  it('the check can fail: the same workflow with a broken fail-fast is rejected by the parser', async () => {
    const p = project();
    const r = await whet(['schedule', 'print', '--via', 'github', '--shards', '2', '--package', '@team/whetstone@0.1.0'], { cwd: p.cwd });
    const text = r.stdout.slice(r.stdout.indexOf('# whetstone nightly')).replace('fail-fast: false', 'fail-fast: sometimes');
    expect((await validate(text)).errors.join('\n')).toMatch(/Unexpected value 'sometimes'/);
  });

  it('installs and removes its own file beside the unsharded one', async () => {
    const p = project();
    const file = join(p.dir, '.github/workflows/whetstone-nightly-shards.yml');
    expect((await whet(['schedule', 'install', '--via', 'github', '--shards', '3', '--package', '@team/whetstone@0.1.0'], { cwd: p.cwd })).stdout).toContain(`${file} written`);
    expect((await validate(readFileSync(file, 'utf8'))).errors).toEqual([]);
    expect((await whet(['schedule', 'remove', '--via', 'github', '--shards', '3'], { cwd: p.cwd })).stdout).toContain(`${file} removed`);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses --shards where it is not supported, and a count that shards nothing', async () => {
    const p = project();
    const cron = await whet(['schedule', 'print', '--via', 'cron', '--shards', '3'], { cwd: p.cwd });
    expect(cron.code).toBe(2);
    expect(cron.stderr).toMatch(/supported with --via github/);
    const one = await whet(['schedule', 'print', '--via', 'github', '--shards', '1', '--package', '@team/whetstone@0.1.0'], { cwd: p.cwd });
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/--shards 1: give 2–256/);
  });

  it('--via k8s: a volume, an Indexed Job of N shards and a merge Job, valid against the Kubernetes schemas', async () => {
    const p = project();
    const r = await whet(['schedule', 'print', '--via', 'k8s', '--shards', '5', '--image', 'registry.example/team/skills:1', '--package', '@team/whetstone@0.1.0'], { cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS() as any);
    expect(docs.map((d) => d.kind)).toEqual(['PersistentVolumeClaim', 'CronJob', 'CronJob']);
    // The models' validate() checks each object against the Kubernetes OpenAPI schema and throws on a mismatch.
    new PersistentVolumeClaim(docs[0]).validate();
    for (const d of docs.slice(1)) new CronJob(d).validate();
    const shards = docs[1].spec.jobTemplate.spec;
    expect(shards).toMatchObject({ completionMode: 'Indexed', completions: 5, parallelism: 5 });
    const script = shards.template.spec.containers[0].command.join(' ');
    expect(script).toMatch(/JOB_COMPLETION_INDEX \+ 1/);
    expect(script).toMatch(/--shard "\$i\/5"/);
    const merge = docs[2].spec.jobTemplate.spec.template.spec;
    expect(merge.initContainers[0].command.join(' ')).toMatch(/-ge 5/);
    expect(merge.containers[0].command.join(' ')).toMatch(/whet nightly .*--merge \/shards\/\$night\/shard-\*/);
    // Keys from a Secret, never a value in the file.
    expect(merge.containers[0].envFrom).toEqual([{ secretRef: { name: 'whetstone-engine-keys', optional: true } }]);
    expect(r.stdout).not.toMatch(/TEAM_ANTHROPIC_KEY:/);
    // And the schema check can fail: a completion count that is not a number is refused.
    expect(() => new CronJob({ ...docs[1], spec: { ...docs[1].spec, jobTemplate: { spec: { ...shards, completions: 'five' } } } }).validate()).toThrow(/integer/);
    const install = await whet(['schedule', 'install', '--via', 'k8s', '--shards', '5'], { cwd: p.cwd });
    expect(install.code).toBe(2);
    expect(install.stderr).toMatch(/print only/);
  });
});

