#!/usr/bin/env node
// The gate stage as a program of its own: `node dist/stages/gate/main.js [--run RUN] [--state-root DIR]`.
import { main } from '../../src/cli.js';

await main(['gate', ...process.argv.slice(2)]);
