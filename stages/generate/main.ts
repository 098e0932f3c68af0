#!/usr/bin/env node
// The generate stage as a program of its own: `node dist/stages/generate/main.js [--run RUN] [--state-root DIR]`.
// It is the CLI's `generate` command, so flags, output and exit codes are the same.
import { main } from '../../src/cli.js';

await main(['generate', ...process.argv.slice(2)]);
