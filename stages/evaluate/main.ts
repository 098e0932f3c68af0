#!/usr/bin/env node
// The evaluate stage as a program of its own: `node dist/stages/evaluate/main.js --standalone …`, or a
// ranked candidate against the baseline (`--input ranking.json --candidate-id ID`), or one shard. It loads
// the evaluate command and this stage only — no other stage or command — and takes the same flags, prints
// the same and exits with the same codes as `whet evaluate`.
import { main } from '../../src/program/main.js';
import { baseProgram } from '../../src/program/program.js';
import { registerEvaluateCommand } from '../../src/commands/evaluate.js';

await main(['evaluate', ...process.argv.slice(2)], async (_argv, deps, setCode) => {
  const program = baseProgram('whet', deps);
  registerEvaluateCommand(program, deps, setCode);
  return program;
});
