#!/usr/bin/env node
// The learn stage as a program of its own: `node dist/stages/learn/main.js [--run RUN] [--state-root DIR] [-c FILE] [--json]`.
// Shipped at that path as an entry of the bundle (scripts/bundle.ts), it loads the learn stage, the loop kernel
// and the runner's drive — no other stage and no other command — and takes the same flags, prints the same
// and exits with the same codes as `whet learn`.
import { main } from '../program/main.js';
import { baseProgram } from '../program/program.js';
import { registerStageCommand } from '../commands/stage-command.js';
import { run } from '../../stages/learn/index.js';

await main(['learn', ...process.argv.slice(2)], async (_argv, deps, setCode) => {
  const program = baseProgram('whet', deps);
  registerStageCommand(program, 'learn', deps, setCode, { learn: (ctx) => run(ctx) });
  return program;
});
