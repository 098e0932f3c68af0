// Issue 41: an unknown key suggests the nearest key valid where it is written, read from the schema itself;
// a missing required key is named as missing, with the written key it is probably misspelt as.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/config/pipeline.js';
import { loadSuite } from '../../src/config/suite.js';
import { nearest } from '../../src/config/did-you-mean.js';
import { tempDir, write } from '../support/cli.js';

async function pipelineError(yaml: string): Promise<string> {
  const dir = tempDir();
  write(join(dir, 'pipeline.yaml'), yaml);
  const err = (await loadPipeline('pipeline.yaml', dir).catch((e: Error) => e)) as Error;
  return err.message.replaceAll(`${dir}/`, '');
}

describe('did you mean', () => {
  it('tresholds: suggests thresholds, at the key', async () => {
    expect(await pipelineError('engine: {type: mock}\ntresholds:\n  min_effect: 0.1\n')).toBe('pipeline.yaml:2:1 tresholds: unknown key "tresholds" (did you mean "thresholds"?)');
  });

  it('engine: {typ: mock} names type as missing and the key written in its place', async () => {
    expect(await pipelineError('engine: {typ: mock}\n')).toMatch(/^pipeline\.yaml:1:\d+ engine\.type: missing required key "type" \("typ" is written: did you mean "type"\?\)$/);
  });

  it('suggests from the keys of the engine type written, in nested objects and lists', async () => {
    expect(await pipelineError('engine: {type: claude, modle: sonnet}\n')).toMatch(/engine\.modle: unknown key "modle" \(did you mean "model"\?\)/);
    // `sandbox` is a codex key: a claude engine is not offered it.
    expect(await pipelineError('engine: {type: claude, sandbx: read-only}\n')).toMatch(/engine\.sandbx: unknown key "sandbx"$/);
    expect(await pipelineError('engine: {type: mock}\nevaluate:\n  passk: 2\n')).toMatch(/evaluate\.passk: unknown key "passk" \(did you mean "pass_k"\?\)/);
    expect(await pipelineError('engine: {type: mock}\ntargets:\n  - {skil: s}\n')).toMatch(/targets\[0\]\.skil: unknown key "skil" \(did you mean "skill"\?\)/);
  });

  it('suggests nothing for a key far from every valid one, or one already written', async () => {
    expect(await pipelineError('engine: {type: mock}\nbananas: 1\n')).toMatch(/bananas: unknown key "bananas"$/);
    expect(await pipelineError('engine: {type: mock}\nstate_dir: s\nstate_dirs: t\n')).toMatch(/state_dirs: unknown key "state_dirs"$/);
  });

  it('works in task suites too', () => {
    const dir = tempDir();
    write(join(dir, 'tasks.yaml'), 'skill_id: s\nversion: "1"\ntasks:\n  - id: a\n    promt: p\n    judge: {type: contains, expected: [x]}\n');
    expect(() => loadSuite(join(dir, 'tasks.yaml'))).toThrow(/tasks\[0\]\.promt: unknown key "promt" \(did you mean "prompt"\?\)/);
  });

  it('nearest: a slip of a letter or two, never a different word', () => {
    expect(nearest('tresholds', ['thresholds', 'targets'])).toBe('thresholds');
    expect(nearest('Pass-K', ['pass_k'])).toBe('pass_k');
    expect(nearest('typ', ['type'])).toBe('type');
    expect(nearest('cat', ['dog'])).toBeUndefined();
    expect(nearest('engine', [])).toBeUndefined();
  });
});
