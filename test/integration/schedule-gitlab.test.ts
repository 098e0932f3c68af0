// `whet schedule print --via gitlab --shards N` (issue 16): the pipeline is checked against GitLab's own CI
// JSON schema (the ci.json gitlab-ci-local ships, compiled with ajv the way gitlab-ci-local validates a
// .gitlab-ci.yml), not by string matching: a shard job with parallel: N running shard
// CI_NODE_INDEX/CI_NODE_TOTAL and keeping its shard as an artifact, and a merge job that needs it, runs
// after a failed shard too, merges, reports and exits with the verdict; engine keys never in the file.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { tempDir, whet, write } from '../support/cli.js';

const require = createRequire(import.meta.url);
const schemaFile = join(require.resolve('gitlab-ci-local/package.json'), '..', 'src', 'schema', 'schema.json');
const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as { $id: string };
// The options gitlab-ci-local's own validator uses for this schema (src/validator.js).
const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, validateFormats: false, strictTypes: false, keywords: ['markdownDescription'] });
const validateCi = ajv.compile(schema);

function errorsOf(doc: unknown): string[] {
  return validateCi(doc) ? [] : (validateCi.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

function project(opts: { dependency?: boolean } = {}): { dir: string; cwd: string } {
  const dir = tempDir('whet-sched-gitlab-');
  write(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  write(join(dir, 'proj', 'pipeline.yaml'), 'state_dir: state\nengine: {type: anthropic, model: claude-x, api_key_env: TEAM_ANTHROPIC_KEY}\n');
  if (opts.dependency) write(join(dir, 'proj', 'package.json'), JSON.stringify({ name: 'skills', devDependencies: { whetstone: '^0.1.0' } }));
  return { dir, cwd: join(dir, 'proj') };
}

async function printed(cwd: string, shards: string, extra: string[] = []): Promise<{ text: string; ci: any }> {
  const r = await whet(['schedule', 'print', '--via', 'gitlab', '--shards', shards, ...extra], { cwd });
  expect(r.code, r.stderr).toBe(0);
  const text = r.stdout;
  return { text, ci: parse(text) };
}

describe('whet schedule print --via gitlab --shards N', () => {
  it('the schema is GitLab’s CI schema, and it can fail: a broken pipeline is rejected', () => {
    expect(schema.$id).toBe('https://gitlab.com/.gitlab-ci.yml');
    expect(errorsOf({ job: { script: ['true'], parallel: 4 } })).toEqual([]);
    expect(errorsOf({ job: { script: ['true'], parallel: 'four' } }).length).toBeGreaterThan(0);
    expect(errorsOf({ job: { script: ['true'], needs: [{ job: 'x', artifacts: 'yes' }] } }).length).toBeGreaterThan(0);
  });

  it('prints a pipeline GitLab’s schema accepts: N parallel shards, then a merge that needs them', async () => {
    const p = project();
    const { text, ci } = await printed(p.cwd, '4', ['--package', '@team/whetstone@0.1.0']);
    expect(errorsOf(ci)).toEqual([]);
    const shard = ci['whetstone-shard'];
    const merge = ci['whetstone-merge'];
    expect(ci.stages).toEqual(['whetstone-install', 'whetstone-shards', 'whetstone-merge']);
    expect(shard.parallel).toBe(4);
    expect(shard.script.join('\n')).toMatch(/^\.whetstone\/bin\/whet nightly -c 'pipeline.yaml' --shard "\$CI_NODE_INDEX\/\$CI_NODE_TOTAL" --state-root "whetstone-shards\/\$CI_NODE_INDEX"$/m);
    expect(shard.script[0]).toBe("cd 'proj'");
    expect(shard.artifacts.paths).toEqual(['proj/whetstone-shards/']);
    expect(merge.needs).toEqual([{ job: 'whetstone-install', artifacts: true }, { job: 'whetstone-shard', artifacts: true }]);
    expect(merge.rules[0].when).toBe('always');
    const ms = merge.script.join('\n');
    expect(ms).toMatch(/whet nightly -c 'pipeline.yaml' --merge whetstone-shards\/\* \|\| verdict=\$\?/);
    expect(merge.script.at(-1)).toBe('exit "$verdict"');
    expect(ms).toMatch(/whet report --nightly --format html -o whetstone-report.html/);
    expect(merge.artifacts).toMatchObject({ when: 'always', paths: ['proj/state/nightly/', 'proj/whetstone-report.html', 'proj/whetstone-report.md'] });
    expect(merge.cache).toMatchObject({ paths: ['proj/state/'], when: 'always' });
    // whetstone is not a dependency here: the install job installs the --package spec, the others call it.
    expect(ci['whetstone-install'].variables.WHETSTONE_PACKAGE).toBe('@team/whetstone@0.1.0');
    expect(ci['whetstone-install'].script).toContain('npm install -g --prefix "$CI_PROJECT_DIR/proj/.whetstone" "$WHETSTONE_PACKAGE"');
    // Keys: named in the comment as CI/CD variables to create, never given a value in the file.
    expect(text).toMatch(/CI\/CD variables .* named TEAM_ANTHROPIC_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY/);
    expect(Object.keys(ci.variables)).not.toContain('TEAM_ANTHROPIC_KEY');
    expect(text).not.toMatch(/TEAM_ANTHROPIC_KEY:/);
    // The schedule lives in GitLab, not the file: the comment gives the cron and the variable to set.
    expect(text).toMatch(/pipeline schedule \(Build → Pipeline\n# schedules\) with the cron "0 3 \* \* \*", time zone UTC, and the variable WHETSTONE_NIGHTLY = 1/);
    expect(shard.rules).toEqual([{ if: '$WHETSTONE_NIGHTLY == "1"' }]);
  });

  it('the same check fails on the printed file once it is broken', async () => {
    const p = project();
    const { text } = await printed(p.cwd, '3', ['--package', '@team/whetstone@0.1.0']);
    expect(errorsOf(parse(text))).toEqual([]);
    expect(errorsOf(parse(text.replace('parallel: 3', 'parallel: three'))).join('\n')).toMatch(/parallel/);
    expect(errorsOf(parse(text.replace('when: always\n  timeout', 'when: sometimes\n  timeout'))).length).toBeGreaterThan(0);
  });

  it('a project that lists whetstone runs npm ci and npx --no-install whet; --image is obeyed', async () => {
    const p = project({ dependency: true });
    const { ci } = await printed(p.cwd, '2', ['--image', 'registry.example/node:20-slim']);
    expect(errorsOf(ci)).toEqual([]);
    expect(ci['whetstone-shard'].image).toBe('registry.example/node:20-slim');
    expect(ci['whetstone-install'].script).toEqual(["cd 'proj'", 'npm ci']);
    expect(ci['whetstone-merge'].script.join('\n')).toMatch(/npx --no-install whet nightly .*--merge/);
    expect(ci['whetstone-install'].variables).toBeUndefined();
  });

  it('refuses what it cannot write: no --shards, install/remove, too many shards, --image elsewhere', async () => {
    const p = project();
    const none = await whet(['schedule', 'print', '--via', 'gitlab'], { cwd: p.cwd });
    expect([none.code, none.stderr]).toEqual([2, expect.stringMatching(/give --shards N/)]);
    const install = await whet(['schedule', 'install', '--via', 'gitlab', '--shards', '2'], { cwd: p.cwd });
    expect([install.code, install.stderr]).toEqual([2, expect.stringMatching(/print only/)]);
    const many = await whet(['schedule', 'print', '--via', 'gitlab', '--shards', '201', '--package', '@team/whetstone@0.1.0'], { cwd: p.cwd });
    expect([many.code, many.stderr]).toEqual([2, expect.stringMatching(/give 2–200/)]);
    const image = await whet(['schedule', 'print', '--via', 'github', '--image', 'x'], { cwd: p.cwd });
    expect([image.code, image.stderr]).toEqual([2, expect.stringMatching(/--image .* gitlab or k8s/)]);
  });
});
