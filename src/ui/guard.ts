/**
 * Who may talk to the `git mem ui` server: the page it printed the URL of,
 * and nothing else. Pure checks on a request's headers (no I/O):
 *
 * - the Host must be the loopback address and port the server listens on
 *   (a DNS-rebinding page reaches us under its own name, and is refused);
 * - an Origin, when the browser sends one, must be the server's own
 *   (cross-site requests are refused; no CORS header is ever sent);
 * - `Sec-Fetch-Site`, when sent, must be same-origin or none (typed or opened URL);
 * - the token of the printed URL must come with every request: as the
 *   HttpOnly, SameSite=Strict cookie the first request sets, or in the
 *   `X-Git-Mem-Token` header (tools);
 * - a write (POST) must carry JSON and either the header token, or the
 *   cookie with the server's own Origin.
 */
import { timingSafeEqual } from 'node:crypto';

export const TOKEN_HEADER = 'x-git-mem-token';

/** The cookie's name carries the port: cookies are shared by every port of a host. */
export function cookieName(port: number): string {
  return `git-mem-ui-${port}`;
}

/** Nothing may run but our own script and style, nothing remote is fetched, nothing frames the page. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Sent with every response. */
export function securityHeaders(): Record<string, string> {
  return {
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}

export interface RequestFacts {
  method: string;
  host?: string;
  origin?: string;
  fetchSite?: string;
  cookie?: string;
  tokenHeader?: string;
  /** The token in the URL's query (only the first page is opened with it). */
  queryToken?: string | null;
  contentType?: string;
}

export type Verdict = { ok: true; via: 'cookie' | 'header' | 'query' } | { ok: false; status: number; reason: string };

function sameToken(given: string | undefined | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function ownOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

export function checkRequest(r: RequestFacts, token: string, port: number): Verdict {
  if (!r.host || !ownOrigins(port).includes(`http://${r.host.toLowerCase()}`)) return { ok: false, status: 421, reason: 'wrong Host: this server answers only to 127.0.0.1 and localhost' };
  const sameOrigin = r.origin !== undefined && ownOrigins(port).includes(r.origin.toLowerCase());
  if (r.origin !== undefined && !sameOrigin) return { ok: false, status: 403, reason: 'cross-origin request refused' };
  if (r.fetchSite !== undefined && r.fetchSite !== 'same-origin' && r.fetchSite !== 'none') return { ok: false, status: 403, reason: 'cross-site request refused' };
  const byHeader = sameToken(r.tokenHeader, token);
  const byCookie = sameToken(cookieValue(r.cookie, cookieName(port)), token);
  const byQuery = r.method === 'GET' && sameToken(r.queryToken, token);
  if (!byHeader && !byCookie && !byQuery) return { ok: false, status: 403, reason: 'missing or wrong token: open the URL git mem ui printed' };
  if (r.method === 'POST') {
    if (!(r.contentType ?? '').toLowerCase().startsWith('application/json')) return { ok: false, status: 415, reason: 'writes take application/json' };
    if (!byHeader && !sameOrigin) return { ok: false, status: 403, reason: 'a write needs the page\'s own Origin or the token header' };
  } else if (r.method !== 'GET' && r.method !== 'HEAD') return { ok: false, status: 405, reason: 'method not allowed' };
  return { ok: true, via: byHeader ? 'header' : byCookie ? 'cookie' : 'query' };
}
