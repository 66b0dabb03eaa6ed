/**
 * BERT's uncased WordPiece tokenizer, the pure part, for the static query
 * embedding (services/search/static-query.ts): the same word pieces as
 * transformers.js's BertTokenizer with MiniLM's tokenizer.json (BertNormalizer
 * with lowercase and accents stripped, BertPreTokenizer, WordPiece with `##`),
 * without loading transformers.js. A unit test checks it against transformers.js.
 */

/** Longest word WordPiece splits; a longer one is the unknown token, as in BERT. */
const MAX_WORD_CHARS = 100;

/** BERT counts every non-letter, non-digit ASCII symbol as punctuation, besides Unicode's P* classes. */
function isPunctuation(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) return true;
  return /\p{P}/u.test(ch);
}

function isCjk(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x20000 && c <= 0x2a6df) ||
    (c >= 0x2a700 && c <= 0x2b73f) ||
    (c >= 0x2b740 && c <= 0x2b81f) ||
    (c >= 0x2b820 && c <= 0x2ceaf) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0x2f800 && c <= 0x2fa1f)
  );
}

/** BertNormalizer (clean text, CJK characters apart, lowercase, accents stripped) and BertPreTokenizer: the words to split into pieces. */
export function bertWords(text: string): string[] {
  let clean = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c === 0 || c === 0xfffd) continue;
    if (/\s/u.test(ch)) clean += ' ';
    else if (/[\p{Cc}\p{Cf}]/u.test(ch)) continue;
    else if (isCjk(c)) clean += ` ${ch} `;
    else clean += ch;
  }
  const folded = clean.toLowerCase().normalize('NFD').replace(/\p{Mn}/gu, '');
  const words: string[] = [];
  for (const chunk of folded.split(' ')) {
    let word = '';
    for (const ch of chunk) {
      if (isPunctuation(ch)) {
        if (word) words.push(word);
        words.push(ch);
        word = '';
      } else word += ch;
    }
    if (word) words.push(word);
  }
  return words;
}

/**
 * Token ids of the text's word pieces (no [CLS] or [SEP]), at most `max`:
 * each word split greedily into the longest pieces the vocabulary has,
 * continuations prefixed `##`; a word that cannot be split is `unk`.
 */
export function wordPieceIds(text: string, vocab: { get(token: string): number | undefined }, unk: number, max: number): number[] {
  const ids: number[] = [];
  for (const word of bertWords(text)) {
    if (ids.length >= max) break;
    const chars = Array.from(word);
    if (chars.length > MAX_WORD_CHARS) {
      ids.push(unk);
      continue;
    }
    const pieces: number[] = [];
    let start = 0;
    let bad = false;
    while (start < chars.length) {
      let end = chars.length;
      let found = -1;
      while (start < end) {
        const piece = (start > 0 ? '##' : '') + chars.slice(start, end).join('');
        const id = vocab.get(piece);
        if (id !== undefined) {
          found = id;
          break;
        }
        end--;
      }
      if (found < 0) {
        bad = true;
        break;
      }
      pieces.push(found);
      start = end;
    }
    if (bad) ids.push(unk);
    else ids.push(...pieces);
  }
  return ids.slice(0, max);
}
