#!/usr/bin/env node
// The discriminate stage as a program of its own: `node dist/stages/discriminate/main.js [--run RUN] [--state-root DIR]`.
// It is the CLI's `discriminate` command, so flags, output and exit codes are the same.
import { main } from '../../src/cli.js';

await main(['discriminate', ...process.argv.slice(2)]);
