import { describe, expect, it } from 'vitest';
import { checkRequest, cookieName, CONTENT_SECURITY_POLICY } from '../../src/ui/guard.ts';

const TOKEN = 'tok-abcdefghijklmnopqrstuvwxyz';
const PORT = 4321;
const host = `127.0.0.1:${PORT}`;
const cookie = `${cookieName(PORT)}=${TOKEN}`;

describe('ui guard', () => {
  it('takes the token from the cookie of its own port, the header, or the first page\'s query', () => {
    expect(checkRequest({ method: 'GET', host, cookie }, TOKEN, PORT)).toEqual({ ok: true, via: 'cookie' });
    expect(checkRequest({ method: 'GET', host, tokenHeader: TOKEN }, TOKEN, PORT)).toEqual({ ok: true, via: 'header' });
    expect(checkRequest({ method: 'GET', host, queryToken: TOKEN }, TOKEN, PORT)).toEqual({ ok: true, via: 'query' });
    expect(checkRequest({ method: 'GET', host, cookie: `other=1; ${cookie}` }, TOKEN, PORT).ok).toBe(true);
    for (const r of [{}, { cookie: `${cookieName(PORT + 1)}=${TOKEN}` }, { cookie: `${cookieName(PORT)}=${TOKEN}x` }, { tokenHeader: TOKEN.slice(1) }, { queryToken: '' }]) {
      expect(checkRequest({ method: 'GET', host, ...r }, TOKEN, PORT)).toMatchObject({ ok: false, status: 403 });
    }
    // The query token opens the page only: a write never takes it.
    expect(checkRequest({ method: 'POST', host, queryToken: TOKEN, contentType: 'application/json', origin: `http://${host}` }, TOKEN, PORT).ok).toBe(false);
  });

  it('answers only to its own Host and Origin', () => {
    for (const h of [`evil.example:${PORT}`, `127.0.0.1:${PORT + 1}`, '127.0.0.1', `[::1]:${PORT}`, undefined]) {
      expect(checkRequest({ method: 'GET', host: h, cookie }, TOKEN, PORT)).toMatchObject({ ok: false, status: 421 });
    }
    expect(checkRequest({ method: 'GET', host: `localhost:${PORT}`, cookie }, TOKEN, PORT).ok).toBe(true);
    expect(checkRequest({ method: 'GET', host, cookie, origin: 'http://evil.example' }, TOKEN, PORT)).toMatchObject({ ok: false, status: 403 });
    expect(checkRequest({ method: 'GET', host, cookie, origin: 'null' }, TOKEN, PORT)).toMatchObject({ ok: false, status: 403 });
    expect(checkRequest({ method: 'GET', host, cookie, fetchSite: 'cross-site' }, TOKEN, PORT)).toMatchObject({ ok: false, status: 403 });
    expect(checkRequest({ method: 'GET', host, cookie, fetchSite: 'same-site' }, TOKEN, PORT)).toMatchObject({ ok: false, status: 403 });
    expect(checkRequest({ method: 'GET', host, cookie, fetchSite: 'none' }, TOKEN, PORT).ok).toBe(true);
  });

  it('takes writes as JSON, with the page\'s Origin or the token header', () => {
    const origin = `http://${host}`;
    expect(checkRequest({ method: 'POST', host, cookie, origin, contentType: 'application/json' }, TOKEN, PORT).ok).toBe(true);
    expect(checkRequest({ method: 'POST', host, cookie, contentType: 'application/json' }, TOKEN, PORT)).toMatchObject({ ok: false, status: 403 });
    expect(checkRequest({ method: 'POST', host, cookie, origin, contentType: 'text/plain' }, TOKEN, PORT)).toMatchObject({ ok: false, status: 415 });
    expect(checkRequest({ method: 'POST', host, tokenHeader: TOKEN, contentType: 'application/json' }, TOKEN, PORT).ok).toBe(true);
    for (const method of ['PUT', 'DELETE', 'OPTIONS', 'PATCH']) expect(checkRequest({ method, host, cookie, origin }, TOKEN, PORT)).toMatchObject({ ok: false, status: 405 });
  });

  it('allows no inline or remote script', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|https?:|\*/);
  });
});
