#!/usr/bin/env node
// The generate stage as a program of its own: `node dist/stages/generate/main.js [--run RUN] [--state-root DIR] [-c FILE] [--json]`.
// Shipped at that path as an entry of the bundle (scripts/bundle.ts), it loads the generate stage, the loop kernel
// and the runner's drive — no other stage and no other command — and takes the same flags, prints the same
// and exits with the same codes as `whet generate`.
import { main } from '../program/main.js';
import { baseProgram } from '../program/program.js';
import { registerStageCommand } from '../commands/stage-command.js';
import { run } from '../../stages/generate/index.js';

await main(['generate', ...process.argv.slice(2)], async (_argv, deps, setCode) => {
  const program = baseProgram('whet', deps);
  registerStageCommand(program, 'generate', deps, setCode, { generate: (ctx) => run(ctx) });
  return program;
});
