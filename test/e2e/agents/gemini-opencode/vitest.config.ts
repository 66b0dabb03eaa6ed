/**
 * The Gemini CLI and OpenCode real-client suite (npm run test:agents-gemini-opencode): sessions
 * against fake model APIs on loopback. Kept out of the default `npm test` (its files are *.spec.ts).
 */
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: path.resolve(import.meta.dirname, '../../../..'),
  test: {
    include: ['test/e2e/agents/gemini-opencode/*.spec.ts'],
    globalSetup: ['test/e2e/global-setup.ts', 'test/e2e/agents/gemini-opencode/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Each session is a client process plus a hook process per event; two cores.
    maxWorkers: 2,
  },
});
