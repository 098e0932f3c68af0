#!/usr/bin/env node
// The evaluate stage as a program of its own: `node dist/stages/evaluate/main.js --standalone …`.
// It is the CLI's `evaluate` command, so flags, output and exit codes are the same.
import { main } from '../../src/cli.js';

await main(['evaluate', ...process.argv.slice(2)]);
