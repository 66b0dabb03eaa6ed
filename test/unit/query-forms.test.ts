import { describe, expect, it } from 'vitest';
import { queryTerms, termOf } from '../../src/core/search/analyzer.ts';
import { englishForm } from '../../src/core/search/english.ts';
import { buildLexicalQuery, compoundWords, NAME_WEIGHT, namedWords, unprefixed } from '../../src/core/search/query.ts';

describe('English forms before the stemmer', () => {
  it('spells British words as American ones, with their other forms', () => {
    expect(['normalised', 'organisation', 'initialiser', 'optimising', 'analyse', 'colours', 'behaviour', 'favourite', 'centres', 'licence'].map(englishForm)).toEqual([
      'normalized',
      'organization',
      'initializer',
      'optimizing',
      'analyze',
      'colors',
      'behavior',
      'favorite',
      'centers',
      'license',
    ]);
    expect(termOf('normalised')).toBe(termOf('normalized'));
    expect(termOf('behaviour')).toBe(termOf('behavior'));
  });

  it('leaves the words that end in -ise or -our in both spellings', () => {
    for (const word of ['promise', 'compromising', 'exercise', 'expertise', 'advertise', 'surprise', 'enterprise', 'noise', 'raise', 'hour', 'four', 'your', 'tour']) {
      expect(englishForm(word)).toBe(word);
    }
  });

  it('reads adverbs in -ly as their adjective, but not words that only end so', () => {
    expect(['randomly', 'smoothly', 'slowly', 'silently', 'weekly'].map(englishForm)).toEqual(['random', 'smooth', 'slow', 'silent', 'week']);
    for (const word of ['reply', 'apply', 'supply', 'family', 'daily', 'early', 'only', 'hardly', 'nearly', 'likely', 'readonly']) expect(englishForm(word)).toBe(word);
    expect(termOf('randomly')).toBe(termOf('random'));
  });

  it('reads irregular past forms and plurals as their base word, not those that are other words too', () => {
    expect(['ran', 'broken', 'built', 'thrown', 'wrote', 'indices', 'frozen'].map(englishForm)).toEqual(['run', 'break', 'build', 'throw', 'write', 'index', 'freeze']);
    for (const word of ['left', 'led', 'bound', 'went', 'bit', 'won', 'shot']) expect(englishForm(word)).toBe(word);
    expect(termOf('ran')).toBe(termOf('running'));
  });

  it('keeps comparatives and other words as they are', () => {
    for (const word of ['faster', 'latest', 'user', 'server', 'timer']) expect(englishForm(word)).toBe(word);
  });

  // Review of stop 29: SPELLINGS' plural rule (word less its last letter) also takes -r and -d
  // endings, so programmer becomes programr (programmers stays programm: analyzer 2 gave both
  // programm), catalogued catalogd (catalogue: catalog) and centred centerd (centre: center):
  // words that met under analyzer 2 no longer do. The fix (only -s, and -d after an American form in
  // e) changes the terms, so related-words.ts (which holds programr) must be rebuilt with it:
  // not done in the review.
  it('keeps a British spelling\'s -er and -ed forms with their word (programmer, catalogued, centred)', () => {
    expect(termOf('programmer')).toBe(termOf('programmers'));
    expect(termOf('catalogued')).toBe(termOf('catalogue'));
    expect(termOf('centred')).toBe(termOf('centre'));
    expect(termOf('centred')).toBe(termOf('centered'));
    expect(termOf('licenced')).toBe(termOf('licensed'));
    expect(termOf('programmes')).toBe(termOf('programs'));
  });
});

describe('query words', () => {
  it('pairs adjacent plain words that may be written together elsewhere', () => {
    expect(compoundWords('the build complains the lock file is stale')).toEqual([
      ['the', 'build'],
      ['build', 'complains'],
      ['complains', 'the'],
      ['the', 'lock'],
      ['lock', 'file'],
      ['file', 'is'],
      ['is', 'stale'],
    ]);
    expect(compoundWords('why did the sign-in test fail', true)).toEqual([['sign', 'in']]);
    // Digits, identifiers, punctuation between and short joins are not paired.
    expect(compoundWords('v2 api, node_modules x y')).toEqual([]);
  });

  it('searches two words written apart also as the word written together, as a word of its own', () => {
    const query = buildLexicalQuery('lock file mismatch')!;
    expect(query.groups.map((g) => g.term)).toEqual(['lock', 'file', 'mismatch', 'lockfil', 'filemismatch']);
    // Its synonyms come with it: "sign in" is login, which is auth.
    const signIn = buildLexicalQuery('sign-in test')!.groups.find((g) => g.term === 'signin');
    expect(signIn?.synonyms).toContain('login');
    expect(buildLexicalQuery('lock file', { compounds: false })!.groups.map((g) => g.term)).toEqual(['lock', 'file']);
    expect(buildLexicalQuery('lock file', { synonyms: false })!.groups.map((g) => g.term)).toEqual(['lock', 'file']);
  });

  it('weighs a name the query capitalises where no sentence starts', () => {
    expect([...namedWords('What did Nora say about Safari? Jonas said. GitHub and SSO')]).toEqual(['nora', 'safari']);
    const query = buildLexicalQuery('what craft is Nora learning?')!;
    expect(query.groups.find((g) => g.term === 'nora')?.weight).toBe(NAME_WEIGHT);
    expect(query.groups.find((g) => g.term === 'craft')?.weight).toBeUndefined();
    expect(buildLexicalQuery('what is Nora learning', { synonyms: false })!.groups.find((g) => g.term === 'nora')?.weight).toBeUndefined();
  });

  it('does not search for "long" or "often" when the query asks how long or how often', () => {
    expect(queryTerms('how long do we keep logs')).toEqual(['keep', 'logs']);
    expect(queryTerms('How often does the backup run?')).toEqual(['backup', 'run']);
    expect(queryTerms('long running migrations')).toEqual(['long', 'running', 'migrations']);
  });

  it("does not search for the s of a possessive, but keeps the t of a negation", () => {
    expect(queryTerms("is Jonas's foot healed")).toEqual(['jonas', 'foot', 'healed']);
    expect(queryTerms("secrets where they shouldn't be")).toEqual(['secrets', 'shouldn', 't']);
  });

  it('lets a word negated by un- also match its base, as a synonym', () => {
    expect(['untranslated', 'unresponsive', 'unhandled'].map(unprefixed)).toEqual(['translated', 'responsive', 'handled']);
    for (const word of ['understand', 'unique', 'universal', 'unicode', 'until', 'unless', 'undo', 'unset']) expect(unprefixed(word)).toBeNull();
    expect(buildLexicalQuery('untranslated strings', { related: false, compounds: false })!.groups[0]).toEqual({ term: 'untransl', synonyms: ['translat'] });
    expect(buildLexicalQuery('untranslated strings', { synonyms: false })!.groups[0]).toEqual({ term: 'untransl' });
  });
});
