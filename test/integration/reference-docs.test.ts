// The reference cannot drift from the code. docs/reference/configuration.md names every key the
// pipeline.yaml schema accepts (walked recursively from src/config/pipeline.ts to dotted paths);
// docs/reference/cli.md names every command of the real commander program (every family registered, as
// src/cli.ts builds it) and, in that command's section, each of its long flags, and its exit-code table
// matches the error classes of src/core/errors.ts; docs/reference/artifacts.md names every artifact
// `whet schemas` exports. A key, command, flag or artifact added to the code and not to the page fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { baseProgram, FAMILIES, type CliDeps } from '../../src/cli.js';
import { engineConfig } from '../../src/config/engine-schema.js';
import { pipelineSchema } from '../../src/config/pipeline.js';
import * as errors from '../../src/core/errors.js';
import { ARTIFACT_SCHEMAS } from '../../src/report/schemas.js';
import { repoRoot } from '../support/cli.js';

const page = (p: string) => readFileSync(join(repoRoot, 'docs/reference', p), 'utf8');

interface Section {
  heading: string;
  level: number;
  body: string;
}

/** A page's sections: each heading with its text up to the next heading of the same or a higher level. */
export function sections(markdown: string): Section[] {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
  const heads = [...prose.matchAll(/^(#{1,6}) +(.+)$/gm)].map((m) => ({ heading: m[2]!, level: m[1]!.length, at: m.index! }));
  return heads.map((h, i) => {
    const next = heads.slice(i + 1).find((n) => n.level <= h.level);
    return { heading: h.heading, level: h.level, body: prose.slice(h.at, next ? next.at : prose.length) };
  });
}

/** The code spans of a heading, e.g. "### `stages.generate`, `stages.gate`" → ['stages.generate', 'stages.gate']. */
const spans = (s: string) => [...s.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The keys a table in this text documents: the code spans of each row's first cell. */
function rowKeys(text: string): Set<string> {
  const keys = new Set<string>();
  for (const m of text.matchAll(/^\|([^|\n]*)\|/gm)) for (const k of spans(m[1]!)) keys.add(k);
  return keys;
}

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/**
 * Every key pipeline.yaml accepts, as dotted paths: objects descend (`loop.discriminate.llm_judge`), list
 * items are transparent (`targets.skill`), a record of objects descends through `<name>`
 * (`suites.<name>.categories`), a union takes every option's keys. An engine config below the top level
 * (`judge_engine`, `loop.generator_engine` …) is one key: its own keys are documented once, under `engine`.
 */
export function configKeys(schema: z.ZodType = pipelineSchema, path: string[] = []): string[] {
  const def = defOf(schema);
  if (schema === engineConfig && path.length > 0 && path.join('.') !== 'engine') return [path.join('.')];
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return configKeys(def.innerType as z.ZodType, path);
    case 'pipe':
      return configKeys(def.in as z.ZodType, path);
    case 'array':
      return configKeys(def.element as z.ZodType, path);
    case 'lazy':
      return configKeys((def.getter as () => z.ZodType)(), path);
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([k, v]) => configKeys(v, [...path, k]));
    case 'union': {
      const objects = (def.options as z.ZodType[]).filter((o) => leafless(o));
      if (objects.length === 0) return [path.join('.')];
      return [...new Set(objects.flatMap((o) => configKeys(o, path)))];
    }
    case 'record': {
      const value = def.valueType as z.ZodType;
      return leafless(value) ? configKeys(value, [...path, '<name>']) : [path.join('.')];
    }
    default:
      return [path.join('.')];
  }
}

/** Whether a schema (unwrapped) is an object whose keys are documented rather than the value itself. */
function leafless(s: z.ZodType): boolean {
  const def = defOf(s);
  if (['optional', 'nullable', 'default', 'readonly', 'catch', 'nonoptional'].includes(def.type)) return leafless(def.innerType as z.ZodType);
  if (def.type === 'union') return (def.options as z.ZodType[]).some(leafless);
  return def.type === 'object';
}

/**
 * Where a key is documented: its whole dotted path in a code span anywhere, or the rest of its path as a
 * row of a table in the section of its nearest ancestor that has a heading naming it (`## \`loop\``,
 * `### \`suites.<name>\``); a top-level key is a row of "Top-level keys".
 */
export function missingKeys(markdown: string, keys: string[]): string[] {
  const secs = sections(markdown);
  const sectionOf = (q: string) => (q === '' ? secs.find((s) => s.heading === 'Top-level keys') : secs.find((s) => spans(s.heading).includes(q)));
  return keys.filter((key) => {
    const parts = key.split('.');
    for (let i = parts.length - 1; i >= 0; i--) {
      const section = sectionOf(parts.slice(0, i).join('.'));
      if (section) return !rowKeys(section.body).has(parts.slice(i).join('.'));
    }
    return true;
  });
}

const deps: CliDeps = { cwd: process.cwd(), env: {}, now: () => new Date(), stdout: () => undefined, stderr: () => undefined };

/** The whole program, every family registered, as src/cli.ts builds it for one call. */
async function realProgram(): Promise<Command> {
  const program = baseProgram('whet', deps);
  for (const family of new Set(Object.values(FAMILIES))) for (const register of await family()) register(program, deps, () => undefined);
  return program;
}

/** Every command (`whet review approve` included) with its own long flags. */
function commandsOf(cmd: Command, prefix = 'whet'): { name: string; flags: string[] }[] {
  return cmd.commands.flatMap((c) => {
    const name = `${prefix} ${c.name()}`;
    return [{ name, flags: c.options.map((o) => o.long).filter((l): l is string => !!l && l !== '--help') }, ...commandsOf(c, name)];
  });
}

/** What a command's section of cli.md is missing: the section itself (a heading `whet …`), or flags. */
export function missingCommands(markdown: string, commands: { name: string; flags: string[] }[]): string[] {
  const secs = sections(markdown);
  const missing: string[] = [];
  for (const c of commands) {
    const section = secs.find((s) => spans(s.heading).includes(c.name));
    if (!section) {
      missing.push(c.name);
      continue;
    }
    // Only the command's own text, not the sections of its subcommands.
    const own = section.body.slice(0, section.body.slice(1).search(/\n#{1,6} /) + 1 || undefined);
    for (const f of c.flags) if (!new RegExp(`\`[^\`\\n]*${f}\\b(?!-)[^\`\\n]*\``).test(own)) missing.push(`${c.name} ${f}`);
  }
  return missing;
}

/** Each concrete error class of errors.ts with the exit code it carries. */
function errorClasses(): { name: string; code: number }[] {
  const out: { name: string; code: number }[] = [];
  for (const [name, value] of Object.entries(errors)) {
    if (typeof value !== 'function' || !(value.prototype instanceof errors.WhetError)) continue;
    const C = value as unknown as new (...a: unknown[]) => errors.WhetError;
    let instance: errors.WhetError;
    try {
      instance = new C('x');
    } catch {
      instance = new C([]);
    }
    out.push({ name, code: instance.exitCode });
  }
  return out;
}

describe('docs/reference/configuration.md', () => {
  const keys = configKeys();

  it('finds the keys of every part of the schema', () => {
    for (const k of ['version', 'engine.type', 'engine.price.input_per_mtok', 'engine.permission_mode', 'judge_engine', 'targets.skill', 'targets.engine', 'suites.<name>.held_out', 'evaluate.max_attempts', 'thresholds.min_effect', 'loop.discriminate.llm_judge', 'loop.generator_engine', 'budgets.max_wall_time', 'stages.generate.command', 'cache.ttl']) {
      expect(keys, k).toContain(k);
    }
    expect(keys.length).toBeGreaterThan(90);
  });

  it('names every pipeline.yaml key', () => {
    expect(missingKeys(page('configuration.md'), keys)).toEqual([]);
    // Every top-level key is a row of the top-level table, objects (`loop`, `evaluate` …) included.
    expect(missingKeys(page('configuration.md'), Object.keys(pipelineSchema.shape))).toEqual([]);
  });

  it('fails when a key is left out of the page', () => {
    const text = page('configuration.md');
    const without = (row: RegExp) => text.replace(row, '');
    expect(missingKeys(without(/^\| `minibatch` .*$/m), keys)).toEqual(['loop.minibatch']);
    expect(missingKeys(without(/^\| `max_response_mib` .*$/m), keys)).toEqual(['engine.max_response_mib']);
    expect(missingKeys(without(/^\| `held_out` .*$/m), keys)).toEqual(['suites.<name>.held_out']);
    expect(missingKeys(without(/^\| `state_dir` .*$/m), keys)).toEqual(['state_dir']);
  });
});

describe('docs/reference/cli.md', () => {
  it('names every command, and each of its long flags in its own section', async () => {
    const commands = commandsOf(await realProgram());
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(['whet evaluate', 'whet review approve', 'whet schedule print', 'whet import promptfoo', 'whet stage check']));
    expect(commands.length).toBeGreaterThan(30);
    expect(missingCommands(page('cli.md'), commands)).toEqual([]);
  });

  it('fails when a command or a flag is left out of the page', async () => {
    const commands = commandsOf(await realProgram());
    const text = page('cli.md');
    // A flag row dropped from one command: that command's flag, not the same flag of another command.
    const evaluate = text.indexOf('### `whet evaluate`');
    const cut = text.slice(0, evaluate) + text.slice(evaluate).replace(/^\| `--shard-durations.*$/m, '');
    expect(missingCommands(cut, commands)).toEqual(['whet evaluate --shard-durations']);
    const noPrune = text.replace(/^### `whet prune`$/m, '### prune');
    expect(missingCommands(noPrune, commands)).toContain('whet prune');
  });

  it('lists the exit codes the errors carry, each class under its code', () => {
    const table = sections(page('cli.md')).find((s) => s.heading === 'Exit codes')!.body;
    const rows = new Map([...table.matchAll(/^\| `(\d+)` \|(.*)$/gm)].map((m) => [Number(m[1]), m[2]!]));
    const classes = errorClasses();
    expect(classes.map((c) => c.name)).toEqual(expect.arrayContaining(['UsageError', 'ConfigError', 'EngineError', 'StateError', 'NoSpaceError', 'InternalError']));
    // 0, 1 and 130 are set by the commands and the signal handler (src/cli.ts); 2 and 3 by the errors.
    expect([...rows.keys()].sort((a, b) => a - b)).toEqual([...new Set([0, 1, 130, ...classes.map((c) => c.code)])].sort((a, b) => a - b));
    for (const c of classes) {
      expect(rows.get(c.code), `${c.name} (exit ${c.code})`).toContain(`\`${c.name}\``);
      for (const [code, row] of rows) if (code !== c.code) expect(row, `${c.name} listed under ${code}`).not.toContain(`\`${c.name}\``);
    }
  });
});

describe('docs/reference/artifacts.md', () => {
  it('names every artifact `whet schemas` exports, with its schema id and file', () => {
    const secs = sections(page('artifacts.md'));
    for (const a of ARTIFACT_SCHEMAS) {
      const section = secs.find((s) => s.heading === `\`${a.name}\``);
      expect(section, a.name).toBeDefined();
      expect(section!.body).toContain(`\`${a.title}\``);
      expect(section!.body).toContain(`\`${a.file}\``);
    }
  });
});
