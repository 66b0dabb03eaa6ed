import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // e2e tests spawn many git processes; two cores.
    maxWorkers: 2,
    projects: [
      // Pure logic, and the store contracts: no binary needed, so no build before it (npm run test:unit).
      // Property tests run thousands of cases: 2-3 s alone, past the 5 s default beside e2e tests on two cores.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts'], testTimeout: 30_000 } },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
