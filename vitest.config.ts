import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // @actions/workflow-parser imports its schema JSON without an import attribute, which Node 20 refuses;
    // inlined, vite's transform loads it.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
