import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The run's own temporary directory, removed at its end; each file's tempDir folders removed at the file's.
    globalSetup: ['test/support/temp-root.ts'],
    setupFiles: ['test/support/temp-cleanup.ts'],
    // @actions/workflow-parser imports its schema JSON without an import attribute, which Node 20 refuses;
    // inlined, vite's transform loads it.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
