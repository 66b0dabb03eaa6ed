/** Where the pinned Codex and Copilot clients are (no vitest imports: global setup and benchmarks use it too). */
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
export type Client = 'codex' | 'copilot';

/** The client's launcher in node_modules (it finds its platform binary itself), or $CODEX_BIN / $COPILOT_BIN. */
export function clientBin(client: Client): string {
  const fromEnv = process.env[client === 'codex' ? 'CODEX_BIN' : 'COPILOT_BIN'];
  return fromEnv || path.join(ROOT, 'node_modules', '.bin', client);
}
