import { defineConfig } from 'vitest/config';
import { LongFirstSequencer } from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two workers on CI's two cores (vitest's default there is one): the long real-duration file, started
    // first, waits on its slow engine in one while the rest of the suite runs in the other.
    maxWorkers: 2,
    sequence: { sequencer: LongFirstSequencer },
    // @actions/workflow-parser imports its schema JSON without an import attribute, which Node 20 refuses;
    // inlined, vite's transform loads it.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
