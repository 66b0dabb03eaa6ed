import { describe, expect, it } from 'vitest';
import { claudeMarkdown, markdownItems, proposalsFrom } from '../../src/core/claude-md.ts';
import type { Memory } from '../../src/core/memory.ts';

describe('markdownItems', () => {
  it('splits list items and paragraphs under their heading, skipping front matter and keeping code with its item', () => {
    const text = ['---', 'name: x', '---', '# Top', 'A paragraph', 'that wraps.', '', '## Rules', '- one item', '  continued', '* two', '```sh', 'make test', '```', '1. three'].join('\n');
    expect(markdownItems(text)).toEqual([
      { heading: 'Top', text: 'A paragraph that wraps.' },
      { heading: 'Rules', text: 'one item continued' },
      { heading: 'Rules', text: 'two make test' },
      { heading: 'Rules', text: 'three' },
    ]);
  });
});

describe('proposalsFrom', () => {
  const namespaces = ['decisions', 'learnings', 'blockers', 'patterns', 'progress', 'research'];
  it('takes the first sentence as the summary and the item as the body; short items are left out', () => {
    const [p, ...rest] = proposalsFrom('CLAUDE.md', '## Style\n- Prefer small modules. Each has one job and a name that says it.\n- Lint.\n', namespaces);
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ namespace: 'patterns', summary: 'Prefer small modules.', body: 'Prefer small modules. Each has one job and a name that says it.', heading: 'Style' });
  });

  it('uses the heading when no signal says the namespace', () => {
    expect(proposalsFrom('f', '## Gotchas\n- Ports must be fresh per test run here.\n', namespaces)[0]!.namespace).toBe('learnings');
    expect(proposalsFrom('f', '## Architecture decisions\n- The index lives in the git common dir.\n', namespaces)[0]!.namespace).toBe('decisions');
  });
});

describe('claudeMarkdown', () => {
  const m = (namespace: string, summary: string, body = '', status: Memory['status'] = 'active') => ({ namespace, summary, body, status, key: summary.length.toString(16).padStart(10, '0') }) as Memory;
  it('lists active decisions, patterns and blockers with the first body line and the id', () => {
    const md = claudeMarkdown([m('decisions', 'Use pnpm', 'Because hoisting.\nmore'), m('patterns', 'Small modules.', 'One job each.'), m('blockers', 'Old', '', 'resolved'), m('learnings', 'Not here')], (x) => `id-${x.summary}`);
    expect(md).toBe(
      [
        '## Project memory (git-mem)',
        '',
        'Kept as git notes in this repository; `git mem recall <words>` finds more, `git mem hydrate <id>` shows one in full.',
        '',
        '### Decisions',
        '',
        '- Use pnpm: Because hoisting. (`id-Use pnpm`)',
        '',
        '### Patterns',
        '',
        '- Small modules. One job each. (`id-Small modules.`)',
        '',
      ].join('\n'),
    );
  });
});
