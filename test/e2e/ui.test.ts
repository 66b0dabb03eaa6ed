/// <reference lib="dom" />
/**
 * `git mem ui` through the built binary against real repositories: the
 * server's guard with plain HTTP requests (token, Host, Origin, methods, no
 * CORS, the CSP), then the page in Debian's Chromium (playwright-core, never a
 * downloaded browser): search, a memory, a link, edit, forget and undo, the
 * file view, a hostile memory rendered inert, a cross-site page refused, each
 * view without overlapping elements at 1280×800. Screenshots are kept under
 * test-results/ui/.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, git, mem } from './helpers.ts';
import { HAVE_CHROMIUM, launchChromium, NO_CHROMIUM, request, shotsDir, startUi, suiteSandbox, type UiProcess } from './ui-helpers.ts';

function capture(cwd: string, env: NodeJS.ProcessEnv, args: string[]): string {
  const r = mem(cwd, env, ['capture', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

function memories(cwd: string, env: NodeJS.ProcessEnv): Array<{ id: string; summary: string; status: string; body: string }> {
  const r = mem(cwd, env, ['list', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** A repository with a file changed by its second commit, and memories about it: one plain, one linked to it, one hostile. */
function setup() {
  const box = suiteSandbox(BIN);
  const repo = path.join(box.root, 'repo');
  fs.mkdirSync(repo);
  git(repo, box.env, ['init', '-q']);
  fs.mkdirSync(path.join(repo, 'src'));
  fs.writeFileSync(path.join(repo, 'src/store.ts'), 'export function load() {\n  return 1;\n}\n\nexport function save() {\n  return 2;\n}\n');
  git(repo, box.env, ['add', '.']);
  git(repo, box.env, ['commit', '-qm', 'store: load and save']);
  fs.writeFileSync(path.join(repo, 'src/store.ts'), 'export function load() {\n  // cached\n  return cache ?? 1;\n}\n\nexport function save() {\n  return 2;\n}\n');
  git(repo, box.env, ['commit', '-qam', 'store: cache load']);
  const cache = capture(repo, box.env, ['decisions', 'Cache the store load in memory', '-m', 'We keep **one** cache.\n\n- fast\n- simple\n\nSee https://example.com/doc and `load()`.', '--paths', 'src/store.ts:1-4', '--tags', 'cache,store']);
  const follow = capture(repo, box.env, ['learnings', 'Invalidate the cache on save', '-m', 'Saving clears what load cached.', '--relates-to', cache, '--paths', 'src/store.ts:6-8']);
  const hostile = capture(repo, box.env, [
    'learnings',
    'Hostile <img src=x onerror="window.pwned=1"> summary',
    '-m',
    [
      '<script>window.pwned = 2</script>',
      '',
      '[click me](javascript:window.pwned=3) and [data](data:text/html,<script>window.pwned=4</script>)',
      '',
      '<svg onload="window.pwned=5"><circle r="5"/></svg>',
      '',
      '<b onmouseover="window.pwned=6">raw html</b> <iframe src="http://127.0.0.1:1/"></iframe> ![pic](http://example.invalid/x.png)',
      '',
      '- <a href="javascript:window.pwned=7">a link</a>',
      '',
      '```',
      '</code></pre><img src=x onerror="window.pwned=8">',
      '```',
    ].join('\n'),
  ]);
  return { box, repo, cache, follow, hostile };
}

describe('git mem ui: the server', () => {
  let ui: UiProcess;
  let ids: ReturnType<typeof setup>;
  beforeAll(async () => {
    ids = setup();
    ui = await startUi(BIN, ids.repo, ids.box.env);
  });
  afterAll(async () => {
    await ui?.stop();
    ids?.box.remove();
  });

  it('prints a 127.0.0.1 URL with a token and answers only with it', async () => {
    expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);

    // No token, a wrong one: refused, for the page, the assets and the API.
    for (const p of ['/', '/app.js', '/app.css', '/api/search', '/api/memory?id=x']) {
      const r = await request(ui.port, { path: p });
      expect(r.status, p).toBe(403);
    }
    expect((await request(ui.port, { path: '/?token=wrong' })).status).toBe(403);
    expect((await request(ui.port, { path: '/api/search', headers: { cookie: `git-mem-ui-${ui.port}=wrong` } })).status).toBe(403);
    // A token for another server's port is not this one's.
    expect((await request(ui.port, { path: '/api/search', headers: { cookie: `git-mem-ui-1=${ui.token}` } })).status).toBe(403);

    // The token of the printed URL becomes an HttpOnly, SameSite=Strict cookie, and leaves the address bar.
    const first = await request(ui.port, { path: `/?token=${ui.token}` });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toContain(`git-mem-ui-${ui.port}=${ui.token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');

    const withCookie = { cookie: `git-mem-ui-${ui.port}=${ui.token}` };
    const page = await request(ui.port, { path: '/', headers: withCookie });
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/https?:/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // No inline script in the page: its one script is /app.js.
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.body).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);

    const api = await request(ui.port, { path: '/api/search?q=cache', headers: withCookie });
    expect(api.status).toBe(200);
    expect(JSON.parse(api.body).rows.map((r: { id: string }) => r.id)).toContain(ids.cache);
    // The token header works for tools.
    expect((await request(ui.port, { path: '/api/search', headers: { 'x-git-mem-token': ui.token } })).status).toBe(200);
    for (const h of Object.keys(api.headers)) expect(h).not.toMatch(/^access-control-/);
  });

  it('refuses another Host (DNS rebinding), another Origin, other methods, and writes without the page\'s Origin', async () => {
    const withCookie = { cookie: `git-mem-ui-${ui.port}=${ui.token}` };
    expect((await request(ui.port, { path: '/api/search', headers: { ...withCookie, Host: `evil.example:${ui.port}` } })).status).toBe(421);
    expect((await request(ui.port, { path: '/api/search', headers: { ...withCookie, Host: `127.0.0.1:${ui.port + 1}` } })).status).toBe(421);
    expect((await request(ui.port, { path: '/api/search', headers: { ...withCookie, Host: `localhost:${ui.port}` } })).status).toBe(200);
    expect((await request(ui.port, { path: '/api/search', headers: { ...withCookie, Origin: 'http://evil.example' } })).status).toBe(403);
    expect((await request(ui.port, { path: '/api/search', headers: { ...withCookie, 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(403);

    const forget = (headers: Record<string, string>) => request(ui.port, { method: 'POST', path: '/api/action/forget', headers, body: JSON.stringify({ id: ids.cache }) });
    const json = { 'content-type': 'application/json' };
    expect((await forget({ ...withCookie, ...json })).status).toBe(403); // a cookie alone, no Origin
    expect((await forget({ ...withCookie, ...json, Origin: 'http://evil.example' })).status).toBe(403);
    expect((await forget({ ...withCookie, 'content-type': 'text/plain', Origin: `http://127.0.0.1:${ui.port}` })).status).toBe(415);
    expect((await forget({ ...json, Origin: `http://127.0.0.1:${ui.port}` })).status).toBe(403); // no token
    const options = await request(ui.port, { method: 'OPTIONS', path: '/api/action/forget', headers: { ...withCookie, Origin: `http://127.0.0.1:${ui.port}`, 'Access-Control-Request-Method': 'POST' } });
    expect(options.status).toBe(405);
    expect(Object.keys(options.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    // Nothing was forgotten.
    expect(memories(ids.repo, ids.box.env).map((m) => m.id)).toContain(ids.cache);

    // With the token header, a tool may write: through the same service as git mem resolve.
    const resolved = await request(ui.port, { method: 'POST', path: '/api/action/resolve', headers: { 'x-git-mem-token': ui.token, ...json }, body: JSON.stringify({ id: ids.follow }) });
    expect(resolved.status, resolved.body).toBe(200);
    expect(memories(ids.repo, ids.box.env).find((m) => m.id === ids.follow)?.status).toBe('resolved');
    const bad = await request(ui.port, { method: 'POST', path: '/api/action/edit', headers: { 'x-git-mem-token': ui.token, ...json }, body: JSON.stringify({ id: 'decisions:nothing' }) });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(bad.body).error).toBeTruthy();
  });

  it('says what is wrong in one line: outside a repository, a port taken', () => {
    const outside = spawnSync(BIN, ['ui', '--no-open'], { cwd: ids.box.root, env: ids.box.env, encoding: 'utf8', timeout: 10_000 });
    expect(outside.status).toBe(1);
    expect(outside.stderr.trim().split('\n')).toHaveLength(1);
    expect(outside.stdout).toBe('');
    const taken = spawnSync(BIN, ['ui', '--no-open', '--port', String(ui.port)], { cwd: ids.repo, env: ids.box.env, encoding: 'utf8', timeout: 10_000 });
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain(`port ${ui.port} is in use`);
  });

  it('writes through the services: an edit is redacted like the command line\'s', async () => {
    const secret = 'AKIA' + 'Z7Q3X9W2M4K8P6R1';
    const r = await request(ui.port, { method: 'POST', path: '/api/action/edit', headers: { 'x-git-mem-token': ui.token, 'content-type': 'application/json' }, body: JSON.stringify({ id: ids.follow, body: `key ${secret} was here` }) });
    expect(r.status, r.body).toBe(200);
    const shown = mem(ids.repo, ids.box.env, ['show', ids.follow, '--json']);
    expect(JSON.parse(shown.stdout).body).not.toContain(secret);
  });
});

describe.skipIf(!HAVE_CHROMIUM)('git mem ui: the page in Chromium', () => {
  let ui: UiProcess;
  let ids: ReturnType<typeof setup>;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  const problems: string[] = [];
  const shots = shotsDir();

  beforeAll(async () => {
    ids = setup();
    ui = await startUi(BIN, ids.repo, ids.box.env);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    ids?.box.remove();
  });

  /** Elements that overlap a sibling, and a page wider than the window: what a broken layout shows. */
  async function overlaps(p: Page): Promise<string[]> {
    return p.evaluate(() => {
      const found: string[] = [];
      const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''}`;
      const shown = (el: Element) => {
        const st = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && st.display !== 'none' && st.visibility !== 'hidden' && st.position !== 'fixed' && st.position !== 'absolute' && st.display !== 'inline';
      };
      const walk = (el: Element) => {
        if (el.namespaceURI === 'http://www.w3.org/2000/svg') return;
        const kids = [...el.children].filter(shown);
        for (let i = 0; i < kids.length; i++) {
          for (let j = i + 1; j < kids.length; j++) {
            const a = kids[i]!.getBoundingClientRect();
            const b = kids[j]!.getBoundingClientRect();
            const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (w > 1 && h > 1) found.push(`${name(kids[i]!)} overlaps ${name(kids[j]!)}`);
          }
        }
        for (const k of kids) walk(k);
      };
      walk(document.body);
      if (document.documentElement.scrollWidth > window.innerWidth + 1) found.push(`the page is ${document.documentElement.scrollWidth}px wide in a ${window.innerWidth}px window`);
      return found;
    });
  }

  async function view(hash: string, ready: string) {
    await page.goto(`${ui.base}${hash}`);
    await page.waitForSelector(ready);
    await page.waitForFunction(() => document.body.dataset.ready !== undefined);
  }

  it('searches as you type, opens a memory, follows a link; each view renders without overlap at 1280×800', async () => {
    page = await browser.context.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    // Nothing but the server itself is ever asked for.
    page.on('request', (r) => {
      if (!r.url().startsWith(ui.base)) problems.push(`request to ${r.url()}`);
    });

    await page.goto(ui.url);
    await page.waitForSelector('#count');
    // The token left the address bar.
    expect(page.url().startsWith(ui.base)).toBe(true);
    expect(page.url()).not.toContain(ui.token);
    await page.screenshot({ path: path.join(shots, 'search.png') });
    expect(await overlaps(page)).toEqual([]);

    await page.locator('#q').pressSequentially('invalid');
    await page.waitForFunction(() => document.querySelector('#count')?.textContent?.includes('invalid'));
    const found = await page.locator('#results a.open').evaluateAll((as) => as.map((a) => a.getAttribute('data-id')));
    expect(found[0]).toBe(ids.follow);
    await page.screenshot({ path: path.join(shots, 'search-typed.png') });

    // j and k move through the results (Escape leaves the search field, and empties it as a search field does).
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('#count')?.textContent?.includes('newest first'));
    // The order is list's, newest first: memories captured within one second are ordered by key, so it is read, not assumed.
    const order = (JSON.parse(mem(ids.repo, ids.box.env, ['list', '--json']).stdout) as Array<{ id: string }>).map((m) => m.id);
    expect(order).toHaveLength(3);
    await page.keyboard.press('j');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-id'))).toBe(order[0]);
    await page.keyboard.press('j');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-id'))).toBe(order[1]);
    await page.keyboard.press('k');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-id'))).toBe(order[0]);

    // Filters: the namespace narrows the list.
    await page.locator('#q').fill('');
    await page.selectOption('select[name="namespace"]', 'decisions');
    await page.waitForFunction(() => document.querySelectorAll('#results a.open').length === 1);
    expect(await page.locator('#results a.open').getAttribute('data-id')).toBe(ids.cache);

    // Keyboard: down into the results, Enter opens.
    await page.locator('#q').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#summary');
    expect(await page.locator('#summary').textContent()).toBe('Cache the store load in memory');
    expect(await page.locator('#text strong').textContent()).toBe('one');
    expect(await page.locator('#text a').getAttribute('href')).toBe('https://example.com/doc');
    expect(await page.locator('.diff .add').count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(shots, 'memory.png'), fullPage: true });
    expect(await overlaps(page)).toEqual([]);

    // The follow-up links to it; from there the link comes back.
    await view(`#/m/${encodeURIComponent(ids.follow)}`, '#summary');
    // r resolves it, through the page.
    await page.keyboard.press('r');
    await page.waitForFunction(() => document.querySelector('.memory-head .badge')?.textContent === 'resolved');
    expect(memories(ids.repo, ids.box.env).find((m) => m.id === ids.follow)?.status).toBe('resolved');
    await page.locator('#links a.open').click();
    await page.waitForFunction((id) => document.body.dataset.memory === id, ids.cache);
    expect(await page.locator('#summary').textContent()).toBe('Cache the store load in memory');

    await view('#/timeline', '#commits');
    expect(await page.locator('#commits a.open').count()).toBe(3);
    await page.screenshot({ path: path.join(shots, 'timeline.png') });
    expect(await overlaps(page)).toEqual([]);

    await view('#/graph', 'svg.graph');
    expect(await page.locator('svg.graph line').count()).toBe(1);
    expect(await page.locator('svg.graph circle').count()).toBe(3);
    await page.screenshot({ path: path.join(shots, 'graph.png') });
    expect(await overlaps(page)).toEqual([]);

    // The system's dark theme is followed.
    await page.emulateMedia({ colorScheme: 'dark' });
    await view(`#/m/${encodeURIComponent(ids.cache)}`, '#summary');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(255, 255, 255)');
    await page.screenshot({ path: path.join(shots, 'memory-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(problems).toEqual([]);
  });

  it('shows a file with the memories about its lines', async () => {
    await view(`#/file/${encodeURIComponent('src/store.ts')}`, '#file-title');
    expect(await page.locator('#code tr').count()).toBe(8);
    const cards = await page.locator('.card a.open').evaluateAll((as) => as.map((a) => a.getAttribute('data-id')));
    expect(cards).toEqual(expect.arrayContaining([ids.cache, ids.follow]));
    expect(await page.locator('#L2.marked').count()).toBe(1);
    await page.screenshot({ path: path.join(shots, 'file.png') });
    expect(await overlaps(page)).toEqual([]);
  });

  it('edits, forgets and undoes through the page', async () => {
    await view(`#/m/${encodeURIComponent(ids.cache)}`, '#summary');
    await page.keyboard.press('e');
    await page.locator('#edit-form input[name="summary"]').fill('Cache the store load, once');
    await page.locator('#edit-form textarea').fill('Edited in the page.');
    await page.screenshot({ path: path.join(shots, 'edit.png') });
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(() => document.querySelector('#summary')?.textContent === 'Cache the store load, once');
    // Its revisions: the one written now, and the one captured before.
    await page.waitForFunction(() => document.querySelectorAll('#revisions > li').length >= 2);
    expect(await page.locator('#revisions').textContent()).toContain('Cache the store load in memory');
    const edited = memories(ids.repo, ids.box.env).find((m) => m.id === ids.cache);
    expect(edited?.summary).toBe('Cache the store load, once');
    expect(edited?.body).toBe('Edited in the page.');

    await page.keyboard.press('x');
    await page.waitForSelector('#undo');
    expect(memories(ids.repo, ids.box.env).map((m) => m.id)).not.toContain(ids.cache);
    expect(mem(ids.repo, ids.box.env, ['show', ids.cache]).code).not.toBe(0);
    await page.screenshot({ path: path.join(shots, 'forgotten.png') });
    await page.locator('#undo').click();
    await page.waitForFunction((id) => document.body.dataset.memory === id && document.querySelector('#summary') !== null, ids.cache);
    const back = memories(ids.repo, ids.box.env).find((m) => m.id === ids.cache);
    expect(back?.summary).toBe('Cache the store load, once');
    expect(back?.body).toBe('Edited in the page.');
    expect(problems).toEqual([]);
  });

  it('renders a hostile memory inert', async () => {
    await view(`#/m/${encodeURIComponent(ids.hostile)}`, '#summary');
    await page.waitForTimeout(200);
    expect(await page.locator('#summary').textContent()).toBe('Hostile <img src=x onerror="window.pwned=1"> summary');
    const inert = await page.evaluate(() => {
      const text = document.querySelector('#text')!;
      return {
        pwned: (window as unknown as { pwned?: number }).pwned ?? null,
        active: text.querySelectorAll('script, img, svg, iframe, b, object, embed, [onerror], [onload], [onmouseover]').length + document.querySelectorAll('main img, main iframe, main script').length,
        hrefs: [...document.querySelectorAll('main a[href]')].map((a) => a.getAttribute('href')!).filter((h) => !h.startsWith('#/') && !/^https?:\/\//.test(h)),
        shown: text.textContent ?? '',
      };
    });
    expect(inert.pwned).toBeNull();
    expect(inert.active).toBe(0);
    expect(inert.hrefs).toEqual([]);
    expect(inert.shown).toContain('<script>window.pwned = 2</script>');
    expect(inert.shown).toContain('[click me](javascript:window.pwned=3)');
    expect(inert.shown).toContain('<svg onload="window.pwned=5">');
    // Hovering and clicking everything in it changes nothing.
    for (const el of await page.locator('#text *').all()) await el.hover().catch(() => {});
    await page.locator('#text').click();
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned ?? null)).toBeNull();
    await page.screenshot({ path: path.join(shots, 'hostile.png'), fullPage: true });
    // In the list, too.
    await view('#/?q=hostile', '#count');
    expect(await page.locator('#results img, #results svg, #results script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned ?? null)).toBeNull();
    expect(problems).toEqual([]);
  });

  it('exports the same views as one self-contained read-only page', async () => {
    const file = path.join(ids.box.root, 'memories.html');
    const r = mem(ids.repo, ids.box.env, ['export', '--format', 'html', '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    const html = fs.readFileSync(file, 'utf8');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-/);
    expect(html).not.toContain('unsafe-inline');
    // The hostile memory's markup is data: no tag of it survives into the file.
    expect(html).not.toContain('<svg onload');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>window.pwned');
    const other = await browser.context.newPage();
    const asked: string[] = [];
    other.on('request', (q) => {
      if (!q.url().startsWith('file://')) asked.push(q.url());
    });
    other.on('pageerror', (e) => problems.push(`export page error: ${e.message}`));
    other.on('dialog', (d) => {
      problems.push(`export dialog: ${d.message()}`);
      void d.dismiss();
    });
    await other.goto(`file://${file}`);
    await other.waitForSelector('#count');
    expect(await other.locator('#results a.open').count()).toBe(3);
    await other.locator('#q').fill('invalidate');
    await other.waitForFunction(() => document.querySelectorAll('#results a.open').length === 1);
    await other.locator('#results a.open').click();
    await other.waitForSelector('#summary');
    expect(await other.locator('#summary').textContent()).toBe('Invalidate the cache on save');
    await other.locator('#links a.open').click();
    await other.waitForFunction(() => document.querySelector('#summary')?.textContent?.startsWith('Cache the store load'));
    await other.goto(`file://${file}#/m/${encodeURIComponent(ids.hostile)}`);
    await other.waitForSelector('#summary');
    expect(await other.evaluate(() => (window as unknown as { pwned?: number }).pwned ?? null)).toBeNull();
    expect(await other.locator('#text script, #text img, #text svg, #text iframe').count()).toBe(0);
    await other.screenshot({ path: path.join(shots, 'export-hostile.png'), fullPage: true });
    await other.close();
    expect(asked).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('refuses a page from another site, and a browser without the token', async () => {
    // Another site in the same browser (cookies and all) tries to forget a memory and to read the API.
    const evil = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><script>
        window.results = [];
        fetch('${ui.base}api/action/forget', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ id: '${ids.hostile}' }) }).then(() => results.push('sent'), () => results.push('failed'));
        fetch('${ui.base}api/search', { credentials: 'include' }).then((r) => r.text()).then(() => results.push('read'), () => results.push('blocked'));
      </script>`);
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.2', () => r()));
    const address = evil.address() as { port: number };
    const other = await browser.context.newPage();
    await other.goto(`http://127.0.0.2:${address.port}/`);
    await other.waitForFunction(() => (window as unknown as { results: string[] }).results.length === 2);
    expect(await other.evaluate(() => (window as unknown as { results: string[] }).results)).toContain('blocked');
    await other.close();
    evil.close();
    expect(memories(ids.repo, ids.box.env).map((m) => m.id)).toContain(ids.hostile);

    // A fresh browser without the cookie, at the URL without its token.
    const fresh = await launchChromium();
    const p = await fresh.context.newPage();
    const r = await p.goto(ui.base);
    expect(r?.status()).toBe(403);
    expect(await p.textContent('body')).toContain('token');
    await fresh.close();
  });
});

/**
 * A repository whose history has a squash merge and a merge, a memory that
 * reanchoring moved onto the squash commit, a teammate's memory pulled from
 * the remote (unreviewed under the default trust), and a hostile memory.
 */
function historySetup() {
  const box = suiteSandbox(BIN);
  const remote = path.join(box.root, 'remote.git');
  const repo = path.join(box.root, 'repo');
  const mate = path.join(box.root, 'mate');
  git(box.root, box.env, ['init', '-q', '--bare', remote]);
  fs.mkdirSync(repo);
  git(repo, box.env, ['init', '-q']);
  git(repo, box.env, ['remote', 'add', 'origin', remote]);
  fs.mkdirSync(path.join(repo, 'src'));
  fs.writeFileSync(path.join(repo, 'src/store.ts'), 'export const store = 1;\n');
  git(repo, box.env, ['add', '.']);
  git(repo, box.env, ['commit', '-qm', 'store']);
  // A topic branch of two commits, a memory on its last, squash-merged, the branch deleted, reanchored.
  git(repo, box.env, ['checkout', '-qb', 'topic']);
  fs.writeFileSync(path.join(repo, 'src/cache.ts'), 'export const cache = new Map();\n');
  git(repo, box.env, ['add', '.']);
  git(repo, box.env, ['commit', '-qm', 'cache: a map']);
  fs.writeFileSync(path.join(repo, 'src/cache.ts'), 'export const cache = new Map();\nexport function clear() {\n  cache.clear();\n}\n');
  git(repo, box.env, ['commit', '-qam', 'cache: clear it']);
  const topicTip = git(repo, box.env, ['rev-parse', 'HEAD']).trim();
  const first = capture(repo, box.env, ['decisions', 'Clear the cache on save', '-m', 'The map is replaced on save.', '--paths', 'src/cache.ts:2-4']);
  // Edited before the squash: a revision that only the topic commit's note history holds once it moved.
  expect(mem(repo, box.env, ['edit', first, '-m', 'The map is cleared, never replaced.']).code).toBe(0);
  git(repo, box.env, ['checkout', '-q', 'main']);
  git(repo, box.env, ['merge', '-q', '--squash', 'topic']);
  git(repo, box.env, ['commit', '-q', '--no-edit']);
  git(repo, box.env, ['branch', '-qD', 'topic']);
  const re = mem(repo, box.env, ['reanchor']);
  expect(re.code, re.stderr).toBe(0);
  const squash = git(repo, box.env, ['rev-parse', 'HEAD']).trim();
  // A branch merged with a merge commit.
  git(repo, box.env, ['checkout', '-qb', 'side']);
  fs.writeFileSync(path.join(repo, 'src/side.ts'), 'export const side = 2;\n');
  git(repo, box.env, ['add', '.']);
  git(repo, box.env, ['commit', '-qm', 'side: a second module']);
  const sideCommit = git(repo, box.env, ['rev-parse', 'HEAD']).trim();
  git(repo, box.env, ['checkout', '-q', 'main']);
  git(repo, box.env, ['merge', '-q', '--no-ff', 'side', '-m', "Merge branch 'side'"]);
  const merge = git(repo, box.env, ['rev-parse', 'HEAD']).trim();
  const hostile = capture(repo, box.env, ['learnings', 'Hostile <img src=x onerror="window.pwned=1"> cache note', '-m', '<script>window.pwned = 2</script>\n\n[x](javascript:window.pwned=3) <svg onload="window.pwned=5"></svg>', '--paths', 'src/cache.ts:1']);
  git(repo, box.env, ['push', '-q', 'origin', 'main']);
  expect(mem(repo, box.env, ['push']).code).toBe(0);
  // A teammate captures and pushes; this clone pulls: a memory it did not write.
  git(box.root, box.env, ['clone', '-q', remote, mate]);
  git(mate, box.env, ['config', 'user.email', 'mate@example.com']);
  git(mate, box.env, ['config', 'user.name', 'Mate']);
  capture(mate, box.env, ['learnings', 'The store is read once per request', '--paths', 'src/store.ts']);
  const pushed = mem(mate, box.env, ['push']);
  expect(pushed.code, pushed.stderr).toBe(0);
  const pulled = mem(repo, box.env, ['pull']);
  expect(pulled.code, pulled.stderr).toBe(0);
  const all = memories(repo, box.env);
  const id = (summary: string) => all.find((m) => m.summary === summary)!.id;
  return { box, repo, topicTip, squash, sideCommit, merge, hostile, moved: id('Clear the cache on save'), teammate: id('The store is read once per request') };
}

describe.skipIf(!HAVE_CHROMIUM)('git mem ui: merges, moves and trust, and their export, in Chromium', () => {
  let ui: UiProcess;
  let ids: ReturnType<typeof historySetup>;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  const problems: string[] = [];
  const shots = shotsDir();

  beforeAll(async () => {
    ids = historySetup();
    ui = await startUi(BIN, ids.repo, ids.box.env);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    ids?.box.remove();
  });

  function watch(p: Page, base: string) {
    p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    p.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    p.on('request', (r) => {
      if (!r.url().startsWith(base)) problems.push(`request to ${r.url()}`);
    });
  }

  it('marks the squash-moved memory and the merge on the timeline, and trust on every row', async () => {
    expect(ids.moved).toContain(`:${ids.squash.slice(0, 7)}:`);
    const page = await browser.context.newPage();
    watch(page, ui.base);
    await page.goto(ui.url);
    await page.waitForSelector('#count');

    // Trust on every row, with no filter: ours trusted, the teammate's pulled one unreviewed, with who brought it.
    const trust = await page.locator('#results a.open').evaluateAll((as) => Object.fromEntries(as.map((a) => [a.getAttribute('data-id'), a.querySelector('.trust')?.textContent ?? null])));
    expect(Object.keys(trust)).toHaveLength(3);
    expect(trust[ids.teammate]).toMatch(/unreviewed · from origin by Mate <mate@example\.com>/);
    expect(trust[ids.moved]).toMatch(/trusted · written here by Test User/);
    expect(await page.locator('#results .badge.unreviewed').count()).toBe(1);
    await page.screenshot({ path: path.join(shots, 'search-trust.png') });

    await page.goto(`${ui.base}#/timeline`);
    await page.waitForSelector('#commits');
    await page.waitForFunction(() => document.body.dataset.ready !== undefined);
    // The merge, as a merge joining its branch; the branch's commit beside the line.
    const mergeRow = page.locator(`#commits > li[data-commit="${ids.merge}"]`);
    expect(await mergeRow.getAttribute('class')).toContain('merge');
    expect(await mergeRow.locator('.badge.merge').textContent()).toBe('merge');
    expect(await mergeRow.locator('.joins').textContent()).toContain(`joins ${ids.sideCommit.slice(0, 7)}: 1 commit of its branch`);
    expect(await page.locator(`#commits > li[data-commit="${ids.sideCommit}"]`).getAttribute('class')).toContain('side');
    expect(await page.locator(`#commits > li[data-commit="${ids.squash}"]`).getAttribute('class')).not.toContain('side');
    // The memory on the squash commit says where it came from and how.
    const moved = page.locator(`#commits > li[data-commit="${ids.squash}"] a.open[data-id="${ids.moved}"]`);
    expect(await moved.locator('.badge.moved').count()).toBe(1);
    expect(await moved.locator('.moved-from').textContent()).toBe(`moved from ${ids.topicTip.slice(0, 7)} “cache: clear it” (squash merge: its message names the commit)`);
    // Trust on the timeline's rows too.
    expect(await moved.locator('.trust').textContent()).toContain('trusted');
    await page.screenshot({ path: path.join(shots, 'timeline-merges.png'), fullPage: true });

    // And on the memory's page.
    await page.goto(`${ui.base}#/m/${encodeURIComponent(ids.moved)}`);
    await page.waitForSelector('#moved');
    expect(await page.locator('#moved').textContent()).toContain(`moved from ${ids.topicTip.slice(0, 7)}`);
    // Its revisions from before the move, read from the note of the commit it left.
    await page.waitForFunction(() => document.querySelectorAll('#revisions > li').length >= 2);
    expect(await page.locator('#revisions .revision-body').evaluateAll((els) => els.map((e) => e.textContent))).toEqual(['The map is cleared, never replaced.', 'The map is replaced on save.']);
    await page.close();
    expect(problems).toEqual([]);
  });

  it('exports a memory with its revisions and the diff of its scope, and the file view, from file:// and inert', async () => {
    const file = path.join(ids.box.root, 'history.html');
    const r = mem(ids.repo, ids.box.env, ['export', '--format', 'html', '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    const html = fs.readFileSync(file, 'utf8');
    expect(html).not.toContain('<svg onload');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>window.pwned');
    const page = await browser.context.newPage();
    watch(page, 'file://');
    await page.goto(`file://${file}#/m/${encodeURIComponent(ids.moved)}`);
    await page.waitForSelector('#summary');
    expect(await page.locator('#summary').textContent()).toBe('Clear the cache on save');
    // Its revisions, its commit and files, the diff of its scope, where it came from.
    expect(await page.locator('#revisions > li').count()).toBe(2);
    expect(await page.locator('#revisions .revision-body').evaluateAll((els) => els.map((e) => e.textContent))).toEqual(['The map is cleared, never replaced.', 'The map is replaced on save.']);
    expect(await page.locator('main').textContent()).toContain(ids.squash.slice(0, 12));
    expect(await page.locator('ul.files a').evaluateAll((as) => as.map((a) => a.textContent))).toContain('src/cache.ts');
    expect(await page.locator('.diff .add').count()).toBeGreaterThan(0);
    expect(await page.locator('.diff').first().textContent()).toContain('cache.clear();');
    expect(await page.locator('#moved').textContent()).toContain('squash merge');
    await page.screenshot({ path: path.join(shots, 'export-memory.png'), fullPage: true });

    // The file view: the file's text, the memories by line range.
    await page.goto(`file://${file}#/file/${encodeURIComponent('src/cache.ts')}`);
    await page.waitForSelector('#file-title');
    expect(await page.locator('#code tr').count()).toBe(4);
    expect(await page.locator('#L3 .lt').textContent()).toBe('  cache.clear();');
    expect(await page.locator('#L3.marked').count()).toBe(1);
    const cards = await page.locator('.card a.open').evaluateAll((as) => as.map((a) => a.getAttribute('data-id')));
    expect(cards).toEqual(expect.arrayContaining([ids.moved, ids.hostile]));
    await page.screenshot({ path: path.join(shots, 'export-file.png') });

    // The timeline and trust travel too.
    await page.goto(`file://${file}#/timeline`);
    await page.waitForSelector('#commits');
    expect(await page.locator(`#commits > li.merge[data-commit="${ids.merge}"]`).count()).toBe(1);
    expect(await page.locator(`#commits a.open[data-id="${ids.moved}"] .moved-from`).textContent()).toContain('moved from');
    await page.goto(`file://${file}#/`);
    await page.waitForSelector('#count');
    expect(await page.locator(`#results a.open[data-id="${ids.teammate}"] .trust`).textContent()).toContain('unreviewed');

    // A hostile memory in the export stays inert, on its page and on the file's.
    await page.goto(`file://${file}#/m/${encodeURIComponent(ids.hostile)}`);
    await page.waitForSelector('#summary');
    expect(await page.locator('#summary').textContent()).toBe('Hostile <img src=x onerror="window.pwned=1"> cache note');
    expect(await page.locator('main script, main img, main svg, main iframe').count()).toBe(0);
    expect(await page.locator('main a[href^="javascript:"]').count()).toBe(0);
    await page.goto(`file://${file}#/file/${encodeURIComponent('src/cache.ts')}`);
    await page.waitForSelector('#file-title');
    expect(await page.locator('main script, main img, main svg, main iframe').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned ?? null)).toBeNull();
    await page.close();
    expect(problems).toEqual([]);
  });
});

if (!HAVE_CHROMIUM) {
  describe('git mem ui: the page in Chromium', () => {
    it.skip(NO_CHROMIUM, () => {});
  });
}
