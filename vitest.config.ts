import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // At least two files at a time: most of the suite's time is spent waiting (spawned CLIs, loopback servers,
    // real timers), not computing, and vitest's default (cores - 1) ran one at a time on the 2-core machine CI
    // uses, leaving a core idle for most of the run. Files that wait for minutes start first.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongFirstSequencer },
    // The run's own temporary directory, removed at its end; each file's tempDir folders removed at the file's.
    globalSetup: ['test/support/temp-root.ts'],
    setupFiles: ['test/support/temp-cleanup.ts'],
    // @actions/workflow-parser imports its schema JSON without an import attribute, which Node 20 refuses;
    // inlined, vite's transform loads it.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
