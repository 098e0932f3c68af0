// `whet stage check <name> -- <command…>`: runs a would-be external stage program on a sample project
// the way the runner would (src/runner/stage-check.ts) and says whether it honours the contract of
// docs/external-stages.md: exit 0 when it does, 2 with what is wrong when it does not.
import { join } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_STAGE_TIMEOUT_MS, EXTERNAL_STAGE_NAMES } from '../config/external-stages.js';
import { parseDuration } from '../config/duration.js';
import { UsageError } from '../core/errors.js';
import { PACKAGE_ROOT } from '../core/package-info.js';
import { checkStageProgram, isStageName } from '../runner/stage-check.js';
import type { CliDeps, SetCode } from '../program/deps.js';

export function registerStageCommands(program: Command, deps: CliDeps, setCode: SetCode): void {
  const protocol = join(PACKAGE_ROOT, 'docs', 'external-stages.md');
  const stage = program
    .command('stage')
    .description('external stage programs (pipeline.yaml stages.<name>.command)')
    .addHelpText('after', `\nThe protocol a stage program follows (environment, inputs, checks, exit codes): ${protocol}`);
  stage
    .command('check')
    .description('run a stage program on a sample project (mock engine) as the runner would, and say whether it honours the contract')
    .argument('<name>', `the stage it replaces: ${EXTERNAL_STAGE_NAMES.join(', ')}`)
    .argument('[command...]', 'the program and its arguments, after --')
    .option('--timeout <duration>', 'kill the program (and its children) after this long', '10m')
    .option('--keep', 'keep the sample project and print where it is')
    .addHelpText('after', `\nExit 0: it honours the contract; 2: what is wrong. The protocol: ${protocol}`)
    .action(async (name: string, command: string[], o: { timeout: string; keep?: boolean }) => {
      if (!isStageName(name)) throw new UsageError(`stage check: "${name}" is not a stage a program can replace; one of ${EXTERNAL_STAGE_NAMES.join(', ')}`);
      if (command.length === 0) throw new UsageError(`stage check ${name}: give the program after --, e.g. whet stage check ${name} -- python3 my_${name}.py`);
      const timeoutMs = parseDuration(o.timeout) ?? DEFAULT_STAGE_TIMEOUT_MS;
      if (parseDuration(o.timeout) === undefined) throw new UsageError(`--timeout: "${o.timeout}" is not a duration; write e.g. "90s", "10m"`);
      const r = await checkStageProgram(
        { cwd: deps.cwd, env: deps.env, now: deps.now, log: (l) => deps.stderr(`${l}\n`), signal: deps.signal },
        { program: { stage: name, command, cwd: deps.cwd, timeoutMs }, keep: o.keep },
      );
      deps.stdout(`${r.lines.join('\n')}\n`);
      setCode(r.ok ? 0 : 2);
    });
}
