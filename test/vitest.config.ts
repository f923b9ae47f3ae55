import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/elasticsearch.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Integration suites share one Elasticsearch and one built site; files run in parallel workers.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
