/**
 * Git identities (`Name <email> <epoch> <tz>`, as `git var GIT_COMMITTER_IDENT`
 * prints them) with their name and email redacted: a notes commit carries its
 * writer's identity to every clone, as the notes carry the memory's author. Pure.
 */

const IDENT = /^(.*?) ?<([^<>]*)> (\d+ [+-]\d{4})$/;

/** What a commit header cannot hold inside a name or an email. */
const UNSAFE = /[<>\n\0]/g;

/** `ident` with `clean` applied to its name and its email; an ident of another shape is returned as it is. */
export function redactIdent(ident: string, clean: (text: string) => string): string {
  const m = IDENT.exec(ident);
  if (!m) return ident;
  const [, name, email, when] = m as unknown as [string, string, string, string];
  const cleanName = clean(name).replace(UNSAFE, '');
  return `${cleanName ? `${cleanName} ` : ''}<${clean(email).replace(UNSAFE, '')}> ${when}`;
}
