/**
 * The other real clients (npm run test:agents): Codex CLI and Copilot CLI sessions against a
 * fake model API on loopback, as test:claude runs Claude Code. Kept out of `npm test` (*.spec.ts).
 */
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: path.resolve(import.meta.dirname, '../../..'),
  test: {
    include: ['test/e2e/agents/*.spec.ts'],
    globalSetup: ['test/e2e/global-setup.ts', 'test/e2e/agents/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Each session is a client process plus a hook process per event; two cores.
    maxWorkers: 2,
  },
});
