import { describe, expect, it } from 'vitest';
import { porterStem } from '../../src/core/search/stem.ts';

// Word/stem pairs from the examples in Porter's 1980 paper, step by step, and a few from this project's vocabulary.
const PAIRS = `caresses caress ponies poni ties ti caress caress cats cat feed feed agreed agre plastered plaster bled bled motoring motor
sing sing conflated conflat troubled troubl sized size hopping hop tanned tan falling fall hissing hiss fizzed fizz failing fail filing file
happy happi sky sky relational relat conditional condit rational ration valenci valenc hesitanci hesit digitizer digit conformabli conform
radicalli radic differentli differ vileli vile analogousli analog vietnamization vietnam predication predic operator oper feudalism feudal
decisiveness decis hopefulness hope callousness callous formaliti formal sensitiviti sensit sensibiliti sensibl triplicate triplic formative form
formalize formal electriciti electr electrical electr hopeful hope goodness good revival reviv allowance allow inference infer airliner airlin
gyroscopic gyroscop adjustable adjust defensible defens irritant irrit replacement replac adjustment adjust dependent depend adoption adopt
communism commun activate activ angulariti angular homologous homolog effective effect bowdlerize bowdler probate probat rate rate cease ceas
controll control roll roll generalizations gener oscillators oscil authentication authent databases databas caching cach retries retri`
  .split(/\s+/)
  .filter(Boolean);

describe('porterStem', () => {
  it('gives the published stems', () => {
    const wrong: string[] = [];
    for (let i = 0; i < PAIRS.length; i += 2) if (porterStem(PAIRS[i]!) !== PAIRS[i + 1]) wrong.push(`${PAIRS[i]} -> ${porterStem(PAIRS[i]!)}, expected ${PAIRS[i + 1]}`);
    expect(wrong).toEqual([]);
    expect(PAIRS.length / 2).toBeGreaterThanOrEqual(80);
  });

  it('leaves one- and two-letter words alone and maps inflections of a word together', () => {
    expect(porterStem('as')).toBe('as');
    expect(porterStem('a')).toBe('a');
    const forms = ['index', 'indexes', 'indexed', 'indexing'].map(porterStem);
    expect(new Set(forms).size).toBe(1);
  });
});
