import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/support/sequencer.js';
import { SHARED_INTEGRATION } from './test/support/shared-process.js';

// Unit test files, and the short integration files test/support/shared-process.ts names, share worker
// processes (isolate: false): a fresh process per file cost ~0.7 s of CPU in starting node and loading src/
// again, two minutes or more of a run's CPU for ~195 files (issue 43). They call functions with injectable
// inputs, mock nothing and set no globals; the few unit files that read the process's own heap, its
// environment or fake its timers keep a process each.
const OWN_PROCESS = ['test/unit/gc-hint.test.ts', 'test/unit/kept-strings.test.ts', 'test/unit/engines-adaptive.test.ts', 'test/unit/discriminate-judge.test.ts'];

export default defineConfig({
  test: {
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
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/unit/**/*.test.ts', ...SHARED_INTEGRATION], exclude: OWN_PROCESS, isolate: false } },
      { extends: true, test: { name: 'own-process', include: ['test/integration/**/*.test.ts', 'test/browser/**/*.test.ts', ...OWN_PROCESS], exclude: SHARED_INTEGRATION } },
    ],
  },
});
