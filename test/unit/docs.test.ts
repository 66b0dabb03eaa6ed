import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedFiles, staleFiles } from '../../src/docs/generate.ts';
import { SETTINGS } from '../../src/services/settings.ts';

const root = path.resolve(import.meta.dirname, '../..');
const files = generatedFiles();
const man = files.get('man/git-mem.1')!;
/** The page as text, roff escapes undone (enough to search it). */
const plain = man.replace(/\\f[BIRP]/g, '').replace(/\\-/g, '-').replace(/\\\(aq/g, "'").replace(/\\\(dq/g, '"').replace(/\\e/g, '\\');

describe('generated documentation', () => {
  // The CI check: `npm run docs:check` does the same from the command line.
  it('is checked in as the command definitions give it (run npm run docs if this fails)', () => {
    expect(staleFiles(root)).toEqual([]);
  });

  it('documents every command, option, setting and section', () => {
    for (const command of ['capture', 'show', 'list', 'edit', 'resolve', 'forget', 'namespaces', 'recall', 'hydrate', 'index', 'init', 'pull', 'push', 'sync', 'hook', 'doctor', 'config', 'stats']) {
      expect(plain).toContain(`.SS "git mem ${command}`);
    }
    for (const flag of ['--message', '--relates-to', '--force-truncate', '--[no-]fetch', '--push-refspec', '--max-bytes', '--weeks', '--[no-]color']) expect(plain).toContain(flag);
    for (const def of Object.values(SETTINGS)) expect(plain).toContain(def.key);
    for (const section of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'COMMANDS', 'NOTE FORMAT', 'CONFIGURATION', 'ENVIRONMENT', 'FILES', 'EXIT STATUS', 'EXAMPLES', 'SEE ALSO']) {
      expect(man).toMatch(new RegExp(`^\\.SH ${section}$`, 'm'));
    }
  });

  it('is deterministic and machine-independent', () => {
    expect(generatedFiles()).toEqual(files);
    for (const content of files.values()) {
      expect(content).not.toContain(root);
      expect(content).not.toMatch(/generated on/i);
    }
  });

  it('escapes roff: no line starts with a stray dot or quote, hyphens in options are \\-', () => {
    for (const line of man.split('\n')) {
      if (line.startsWith('.') || line.startsWith("'")) expect(line, line).toMatch(/^\.(\\"|TH|SH|SS|PP|TP|IP|RS|RE|nf|fi|ie|el|nh|ad)( |$)/);
    }
    expect(man).toContain('\\fB\\-\\-message\\fR');
  });

  it('gives every shell the same commands', () => {
    for (const name of ['completions/git-mem.bash', 'completions/_git-mem', 'completions/git-mem.fish']) {
      const text = files.get(name)!;
      for (const command of ['capture', 'ls', 'recall', 'doctor', 'stats']) expect(text, name).toContain(command);
      expect(text, name).toContain('__complete');
    }
    expect(files.get('completions/git-mem.bash')).toMatch(/^_git_mem\(\) \{/m);
    expect(files.get('completions/_git-mem')).toMatch(/^#compdef git-mem\n#description /);
  });
});
