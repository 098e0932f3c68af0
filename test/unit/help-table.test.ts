// `whet --help` comes from a static table (src/commands/help-table.ts) so that it loads no command family.
// This holds the table to the real registrars: every command, its usage term and its description, and the
// whole help text, must be what commander would print with every family registered.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { baseProgram, FAMILIES, runCli, type CliDeps } from '../../src/cli.js';
import { COMMAND_TABLE, commandName } from '../../src/commands/help-table.js';

const deps = (out: string[]): CliDeps => ({ cwd: process.cwd(), env: {}, now: () => new Date(), stdout: (s) => void out.push(s), stderr: (s) => void out.push(s) });

async function realProgram(): Promise<Command> {
  const program = baseProgram('whet', deps([])).description('Measure whether a change to an AI agent’s instructions helps, and keep only what the numbers support.');
  for (const family of new Set(Object.values(FAMILIES))) for (const register of await family()) register(program, deps([]), () => undefined);
  return program;
}

describe('static help table', () => {
  it('lists every registered command with its real usage term and description, in order', async () => {
    const program = await realProgram();
    const help = program.createHelp();
    expect(COMMAND_TABLE.map((c) => [c.term, c.description])).toEqual(program.commands.map((c) => [help.subcommandTerm(c), c.description()]));
    // Every command the table names can load its family.
    for (const c of COMMAND_TABLE) expect(FAMILIES[commandName(c.term)], c.term).toBeDefined();
  });

  it('prints exactly the help the registrars would, and the version, without them', async () => {
    const out: string[] = [];
    expect(await runCli(['--help'], deps(out))).toBe(0);
    expect(out.join('')).toContain((await realProgram()).helpInformation());
    const v: string[] = [];
    expect(await runCli(['--version'], deps(v))).toBe(0);
    expect(v.join('')).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('a mistyped command is refused with a suggestion, and `whet help <command>` is that command’s help', async () => {
    const out: string[] = [];
    expect(await runCli(['stauts'], deps(out))).toBe(2);
    expect(out.join('')).toMatch(/unknown command 'stauts'[\s\S]*status/);
    const h: string[] = [];
    expect(await runCli(['help', 'status'], deps(h))).toBe(0);
    expect(h.join('')).toContain('Usage: whet status [options]');
    expect(h.join('')).toContain('--state-root');
  });
});
