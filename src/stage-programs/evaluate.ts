#!/usr/bin/env node
// The evaluate stage as a program of its own: `node dist/stages/evaluate/main.js --standalone …`, or a
// ranked candidate against the baseline (`--input ranking.json --candidate-id ID`), or one shard. Shipped at
// that path as an entry of the bundle (scripts/bundle.ts), it loads the evaluate command and the evaluate
// stage only — no other stage or command — and takes the same flags, prints the same and exits with the
// same codes as `whet evaluate`.
import { main } from '../program/main.js';
import { baseProgram } from '../program/program.js';
import { registerEvaluateCommand } from '../commands/evaluate.js';

await main(['evaluate', ...process.argv.slice(2)], async (_argv, deps, setCode) => {
  const program = baseProgram('whet', deps);
  registerEvaluateCommand(program, deps, setCode);
  return program;
});
