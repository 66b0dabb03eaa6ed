/** `git mem init --gemini`, `--opencode`: what the install or removal did, as text and as JSON. */
import type { ClientInstall } from '../agents/config-install.ts';

export interface ClientInstallJson {
  client: string;
  removed: boolean;
  files: Array<{ file: string; changed: boolean; holds: string }>;
  warnings: string[];
}

export function clientInstallJson(r: ClientInstall): ClientInstallJson {
  return { client: r.client, removed: r.removed, files: r.files.map((f) => ({ file: f.file, changed: f.changed, holds: f.holds })), warnings: [...r.warnings] };
}

export function renderClientInstall(r: ClientInstall): string {
  return r.files
    .map((f) => {
      if (r.removed) return `${f.changed ? 'removed git-mem from' : 'nothing of git-mem in'} ${f.file}`;
      return `${f.changed ? 'installed' : 'unchanged:'} ${f.file}: ${f.holds} (${r.name})`;
    })
    .join('\n');
}
