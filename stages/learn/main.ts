#!/usr/bin/env node
// The learn stage as a program of its own: `node dist/stages/learn/main.js [--run RUN] [--state-root DIR]`.
// It is the CLI's `learn` command, so flags, output and exit codes are the same.
import { main } from '../../src/cli.js';

await main(['learn', ...process.argv.slice(2)]);
