// The json judge: parse, schema, and a schema reached through a symbolic link out of the suite.
import { describe, it, expect } from 'vitest';
import path from 'node:path';
import { writeFile, symlink, mkdir } from 'node:fs/promises';
import type { JudgeSpec } from '../../src/config/suite-schema.js';
import { runJudge } from '../../src/judges/index.js';
import { tempDir } from '../support/temp.js';
import { ctx } from '../support/judge-context.js';

describe('json judge', () => {
  it('passes on valid JSON', async () => {
    const r = await runJudge({ type: 'json' }, ctx(' {"a": 1} '));
    expect(r).toMatchObject({ type: 'json', passed: true, score: 1, reason: 'valid JSON object' });
  });

  it('fails on invalid JSON and on empty output', async () => {
    const r = await runJudge({ type: 'json' }, ctx('{"a": 1,}'));
    expect(r.passed).toBe(false);
    expect(r.error).toBeUndefined();
    expect(r.reason).toMatch(/^not valid JSON/);
    expect((await runJudge({ type: 'json' }, ctx('  '))).reason).toBe('output is empty, not JSON');
  });

  it('accepts a single fenced json block and says so', async () => {
    const r = await runJudge({ type: 'json' }, ctx('```json\n[1, 2]\n```\n'));
    expect(r.passed).toBe(true);
    expect(r.reason).toContain('extracted from a fenced ```json block');
  });

  it('does not accept a fenced block surrounded by prose', async () => {
    const r = await runJudge({ type: 'json' }, ctx('Here you go:\n```json\n[1]\n```'));
    expect(r.passed).toBe(false);
  });

  it('validates against an inline schema and reports the first errors', async () => {
    const spec: JudgeSpec = { type: 'json', schema: { type: 'object', required: ['name'], properties: { n: { type: 'integer' } } } };
    expect((await runJudge(spec, ctx('{"name": "x", "n": 3}'))).passed).toBe(true);
    const r = await runJudge(spec, ctx('{"n": "three"}'));
    expect(r.passed).toBe(false);
    expect(r.error).toBeUndefined();
    expect(r.reason).toContain("must have required property 'name'");
    expect(r.reason).toContain('/n must be integer');
  });

  it('loads a schema file relative to the suite', async () => {
    const spec: JudgeSpec = { type: 'json', schema: 'schema.json' };
    expect((await runJudge(spec, ctx('{"title": "T", "items": [1, 2]}'))).passed).toBe(true);
    const r = await runJudge(spec, ctx('{"title": "", "items": ["x"]}'));
    expect(r.passed).toBe(false);
    expect(r.reason).toContain('/title must NOT have fewer than 1 characters');
    expect(r.reason).toContain('/items/0 must be integer');
  });

  it('supports draft 2020-12 schemas', async () => {
    const spec: JudgeSpec = {
      type: 'json',
      schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'string' }] },
    };
    expect((await runJudge(spec, ctx('["a", 1]'))).passed).toBe(true);
    expect((await runJudge(spec, ctx('[1]'))).passed).toBe(false);
  });

  it('refuses a schema path outside the suite and reports a missing or invalid schema as error', async () => {
    const out = await runJudge({ type: 'json', schema: '../outside/test_outside.py' }, ctx('{}'));
    expect(out.error).toMatch(/outside the suite folder/);
    const missing = await runJudge({ type: 'json', schema: 'nope.json' }, ctx('{}'));
    expect(missing.error).toMatch(/not found/);
    const invalid = await runJudge({ type: 'json', schema: { type: 'objectx' } }, ctx('{}'));
    expect(invalid.error).toMatch(/invalid JSON Schema/);
    expect(invalid.passed).toBe(false);
  });
});

describe('path guard (symlink escape)', () => {
  it('refuses a schema reached through a symlink that points outside the suite', async () => {
    const root = tempDir('whet-judges-test-');
    const suite = path.join(root, 'suite');
    await mkdir(suite);
    await writeFile(path.join(root, 'secret.json'), '{"type": "object"}');
    await symlink(path.join(root, 'secret.json'), path.join(suite, 'schema.json'));
    const r = await runJudge({ type: 'json', schema: 'schema.json' }, ctx('{}', { suiteDir: suite }));
    expect(r.error).toMatch(/through a symlink/);
    // A symlink that stays inside the suite is fine.
    await writeFile(path.join(suite, 'real.json'), '{"type": "object"}');
    await symlink(path.join(suite, 'real.json'), path.join(suite, 'alias.json'));
    expect((await runJudge({ type: 'json', schema: 'alias.json' }, ctx('{}', { suiteDir: suite }))).passed).toBe(true);
  });
});
