/**
 * Which files a Codex tool call reads or changes. Codex has no Read or Edit tool: files are read
 * by shell commands (`cat`, `sed -n`, `head`, `rg pattern file`…) and changed by `apply_patch`,
 * whose patch text names them. Pure: text in, paths (as written) out.
 */

/** A patch's files: each `*** Update File:` with the text its hunks replace (context and removed lines), each `*** Add File:`. */
export function patchFiles(patch: string): Array<{ path: string; needles: string[] }> {
  const out: Array<{ path: string; needles: string[] }> = [];
  let current: { path: string; needles: string[] } | null = null;
  let hunk: string[] | null = null;
  const closeHunk = () => {
    if (current && hunk?.length) {
      const text = hunk.join('\n');
      if (text.trim()) current.needles.push(text);
    }
    hunk = null;
  };
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (Update|Add|Delete) File: (.+)$/.exec(line);
    if (header) {
      closeHunk();
      current = header[1] === 'Delete' ? null : { path: header[2]!.trim(), needles: [] };
      if (current) out.push(current);
      continue;
    }
    if (line.startsWith('*** ')) {
      closeHunk();
      continue;
    }
    if (!current) continue;
    if (line.startsWith('@@')) {
      closeHunk();
      hunk = [];
    } else if (line.startsWith(' ') || line.startsWith('-')) {
      hunk ??= [];
      hunk.push(line.slice(1));
    } else if (!line.startsWith('+')) closeHunk();
  }
  closeHunk();
  return out;
}

/** Words of a shell command line: blanks split, '…' and "…" quote, a backslash escapes; operators stand alone. */
export function shellTokens(line: string): string[] {
  const tokens: string[] = [];
  let cur = '';
  let inWord = false;
  const end = () => {
    if (inWord) tokens.push(cur);
    cur = '';
    inWord = false;
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'" || ch === '"') {
      const close = line.indexOf(ch, i + 1);
      cur += close === -1 ? line.slice(i + 1) : line.slice(i + 1, close);
      i = close === -1 ? line.length : close;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) end();
    else if (ch === '|' || ch === '&' || ch === ';' || ch === '>' || ch === '<' || ch === '(' || ch === ')') {
      end();
      tokens.push(ch);
    } else {
      cur += ch;
      inWord = true;
    }
  }
  end();
  return tokens;
}

const GREP_VALUES = ['-e', '-f', '-m', '-A', '-B', '-C', '-g', '-t', '-T', '--glob', '--type', '--max-count', '--regexp', '--file'];
/** Commands that read the files named among their arguments: whether the first operand is a pattern or script, and the options that take the next word as their value. */
const READERS: Record<string, { firstIsPattern?: boolean; values?: readonly string[] }> = {
  cat: {},
  head: { values: ['-n', '-c', '--lines', '--bytes'] },
  tail: { values: ['-n', '-c', '--lines', '--bytes'] },
  less: {},
  more: {},
  nl: { values: ['-b', '-w', '-s', '-v', '-i'] },
  bat: { values: ['-r', '--line-range', '-l', '--language'] },
  batcat: { values: ['-r', '--line-range', '-l', '--language'] },
  wc: {},
  sed: { firstIsPattern: true, values: ['-e', '-f', '--expression', '--file'] },
  awk: { firstIsPattern: true, values: ['-f', '-F', '-v'] },
  grep: { firstIsPattern: true, values: GREP_VALUES },
  egrep: { firstIsPattern: true, values: GREP_VALUES },
  rg: { firstIsPattern: true, values: GREP_VALUES },
};

/** Paths a shell command line reads, as written (`bash -lc '…'` is looked into). Whether they exist is the caller's to check. */
export function commandReads(command: string): string[] {
  const tokens = shellTokens(command);
  const out: string[] = [];
  let segment: string[] = [];
  const flush = () => {
    const words = segment;
    segment = [];
    if (!words.length) return;
    let i = 0;
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++; // VAR=value before the command
    const name = (words[i] ?? '').split('/').pop() ?? '';
    if ((name === 'bash' || name === 'sh' || name === 'zsh') && /^-[a-z]*c$/.test(words[i + 1] ?? '') && words[i + 2]) {
      out.push(...commandReads(words[i + 2]!));
      return;
    }
    const reader = READERS[name];
    if (!reader) return;
    let patternTaken = !reader.firstIsPattern;
    for (let k = i + 1; k < words.length; k++) {
      const w = words[k]!;
      if (w === '--') continue;
      if (w.startsWith('-')) {
        if (w === '-e' || w === '-f' || w === '--regexp' || w === '--expression' || w === '--file') patternTaken = true;
        if (reader.values?.includes(w)) k++;
        continue;
      }
      if (!patternTaken) {
        patternTaken = true;
        continue;
      }
      out.push(w);
    }
  };
  for (const t of tokens) {
    if (t === '|' || t === '&' || t === ';' || t === '(' || t === ')') flush();
    else if (t === '>' || t === '<') {
      flush();
      segment = ['#redirect'];
    } else segment.push(t);
  }
  flush();
  return [...new Set(out)];
}
