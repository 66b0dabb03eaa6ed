/**
 * The real-client suite (npm run test:claude): Claude Code sessions against a fake
 * model API. Kept out of the default `npm test` (its files are *.spec.ts, which the
 * root config does not include) because it needs the ~370 MB client.
 */
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: path.resolve(import.meta.dirname, '../../..'),
  test: {
    include: ['test/e2e/claude/**/*.spec.ts'],
    globalSetup: ['test/e2e/global-setup.ts', 'test/e2e/claude/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // Each session is a client process plus a hook process per event; two cores.
    maxWorkers: 2,
  },
});
