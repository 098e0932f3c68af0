import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { repoRoot } from '../support/cli.js';
import { ConfigError } from '../../src/core/errors.js';
import { applyEdit } from '../../src/skill/edits.js';
import { parseSkill } from '../../src/skill/markdown.js';

const FM = [
  '---',
  'name: demo',
  '# why the description is long',
  'description: |',
  '  Line one.',
  '  Line two.',
  '',
  'license: MIT  # keep',
  'triggers:',
  '  - alpha',
  '  - 测试',
  '# trailing comment',
  '---',
  '# Body',
  '',
  'text',
  '',
].join('\n');

function update(text: string, set: Record<string, unknown>, remove?: string[]): string {
  return applyEdit(text, { type: 'update_frontmatter', set: set as never, ...(remove ? { remove } : {}) });
}

function bodyOf(text: string): string {
  return text.slice(parseSkill(text).bodyStart);
}

describe('update_frontmatter: minimal textual edits', () => {
  it('rewrites only the named scalar key; comments, order and other keys stay byte for byte', () => {
    const out = update(FM, { name: 'renamed' });
    expect(out).toBe(FM.replace('name: demo\n', 'name: renamed\n'));
  });

  it('replaces a block scalar entry whole', () => {
    const out = update(FM, { description: 'Short. Use when testing.' });
    expect(out).toBe(FM.replace('description: |\n  Line one.\n  Line two.\n', 'description: Short. Use when testing.\n'));
  });

  it('writes values that need quoting or a block so they read back as given', () => {
    const tricky = '[What] it does: things. Use when # needed';
    const out = update(FM, { description: tricky, multi: 'a\nb', list: ['x', 'y'], n: 3, flag: false, nothing: null });
    const data = parseSkill(out).frontmatter!.data!;
    expect(data).toMatchObject({ description: tricky, multi: 'a\nb', list: ['x', 'y'], n: 3, flag: false, nothing: null, license: 'MIT' });
    expect(out).toContain('license: MIT  # keep\n');
    expect(bodyOf(out)).toBe(bodyOf(FM));
  });

  it('appends new keys after the last entry, before a trailing comment', () => {
    const out = update(FM, { version: '1.0.0' });
    expect(out).toBe(FM.replace('  - 测试\n# trailing comment', "  - 测试\nversion: 1.0.0\n# trailing comment"));
  });

  it('removes keys, lists included, and leaves the rest alone', () => {
    const out = update(FM, {}, ['triggers', 'license', 'absent']);
    expect(out).toBe(FM.replace('license: MIT  # keep\ntriggers:\n  - alpha\n  - 测试\n', ''));
    expect(parseSkill(out).frontmatter!.data).toEqual({ name: 'demo', description: 'Line one.\nLine two.\n' });
  });

  it('uses CRLF in a CRLF file and keeps the BOM', () => {
    const text = '\uFEFF---\r\nname: a\r\n---\r\nbody\r\n';
    expect(update(text, { name: 'b', description: 'x\ny' })).toBe('\uFEFF---\r\nname: b\r\ndescription: |-\r\n  x\r\n  y\r\n---\r\nbody\r\n');
  });

  it('creates a block when there is none, and does nothing when there is nothing to do', () => {
    const text = '\uFEFF# Title\n\nNo final newline';
    expect(update(text, { name: 'x', description: 'd' })).toBe('\uFEFF---\nname: x\ndescription: d\n---\n# Title\n\nNo final newline');
    expect(update(text, {}, ['name'])).toBe(text);
    expect(update('---\n---\nb\n', { name: 'x' })).toBe('---\nname: x\n---\nb\n');
  });

  it('falls back to the Document API for layouts the textual edit does not handle', () => {
    const flow = '---\n{name: a, description: b}\n---\n# T\n';
    const out = update(flow, { name: 'z' });
    expect(parseYaml(parseSkill(out).frontmatter!.yaml)).toEqual({ name: 'z', description: 'b' });
    expect(bodyOf(out)).toBe('# T\n');
  });

  it('refuses frontmatter that is not a YAML mapping', () => {
    expect(() => update('---\nname: [oops\n---\n', { name: 'x' })).toThrow(ConfigError);
    expect(() => update('---\n- a list\n---\n', { name: 'x' })).toThrow(/not a YAML mapping/);
  });
});

describe('js-yaml, one copy per process', () => {
  // A child process of the tsc output: which js-yaml build a SKILL.md's frontmatter is read with.
  const run = (first: string, read: string) => {
    const mod = (p: string) => JSON.stringify(pathToFileURL(join(repoRoot, 'dist/src', p)).href);
    const code = [
      `import { createRequire } from 'node:module';`,
      first.replace('MOD', mod('config/load-yaml.js')),
      `const { skillNameOf } = await import(${mod(read)});`,
      `const name = skillNameOf('---\\nname: one-copy\\ndescription: d\\n---\\n# Body\\n', '/x/dir');`,
      `const cjs = Object.keys(createRequire(import.meta.url).cache).some((f) => /[\\\\/]js-yaml[\\\\/]index\\.js$/.test(f));`,
      'console.log(JSON.stringify({ name, cjs }));',
    ].join('\n');
    return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' })) as { name: string; cjs: boolean };
  };

  it('reads the frontmatter with the ES build the config reader loaded, not the CommonJS one beside it', () => {
    expect(run('await import(MOD);', 'skill/skill-md.js')).toEqual({ name: 'one-copy', cjs: false });
    // The control: with no config reader loaded, the frontmatter still reads, through the CommonJS build.
    expect(run('', 'skill/skill-md.js')).toEqual({ name: 'one-copy', cjs: true });
  });
});
