/** Git's commit object format, parsed without running git (the bytes come from `git cat-file --batch`). */

export interface Signature {
  name: string;
  email: string;
  /** ISO-8601 with the signer's own UTC offset, as `git log --date=iso-strict` shows it. */
  date: string;
}

export interface CommitObject {
  tree: string;
  parents: string[];
  author: Signature | null;
  committer: Signature | null;
  /** The first paragraph of the message, on one line (git's %s). */
  subject: string;
  message: string;
}

/** `Name <email> 1700000000 +0200` → name, email and an ISO date in that offset. */
export function parseSignature(text: string): Signature | null {
  const m = /^(.*?)\s*<([^>]*)>\s*(-?\d+)\s*([+-])(\d{2})(\d{2})\s*$/.exec(text);
  if (!m) return null;
  const [, name = '', email = '', epoch = '0', sign = '+', hh = '00', mm = '00'] = m;
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
  const local = new Date((Number(epoch) + offsetMinutes * 60) * 1000);
  if (Number.isNaN(local.getTime())) return null;
  const iso = local.toISOString().replace(/\.\d{3}Z$/, '');
  return { name, email, date: `${iso}${sign}${hh}:${mm}` };
}

export function parseCommit(text: string): CommitObject {
  const headerEnd = text.indexOf('\n\n');
  const head = headerEnd < 0 ? text : text.slice(0, headerEnd);
  const message = headerEnd < 0 ? '' : text.slice(headerEnd + 2);
  const headers: Array<[string, string]> = [];
  for (const line of head.split('\n')) {
    // Continuation lines (a gpgsig, a mergetag) start with a space and belong to the previous header.
    if (line.startsWith(' ') && headers.length) headers[headers.length - 1]![1] += `\n${line.slice(1)}`;
    else {
      const space = line.indexOf(' ');
      headers.push(space < 0 ? [line, ''] : [line.slice(0, space), line.slice(space + 1)]);
    }
  }
  const get = (name: string) => headers.find(([k]) => k === name)?.[1];
  const firstParagraph = message.replace(/^\s*\n/, '').split(/\n[ \t]*\n/)[0] ?? '';
  return {
    tree: get('tree') ?? '',
    parents: headers.filter(([k]) => k === 'parent').map(([, v]) => v.trim()),
    author: parseSignature(get('author') ?? ''),
    committer: parseSignature(get('committer') ?? ''),
    subject: firstParagraph.split('\n').map((l) => l.trim()).filter(Boolean).join(' '),
    message,
  };
}
