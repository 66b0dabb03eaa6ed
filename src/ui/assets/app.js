// git mem ui: the page. Plain script, no framework. Every piece of memory text
// reaches the DOM as a text node (textContent): nothing a memory holds is ever
// parsed as HTML, and links are made only to http(s) addresses and to the
// page's own views. In an exported file (git mem export --format html) the
// data is embedded in the page and the views are computed here.

(() => {
  const dataEl = document.getElementById('git-mem-data');
  const EXPORTED = dataEl ? JSON.parse(dataEl.textContent) : null;
  const main = document.getElementById('main');
  const toastEl = document.getElementById('toast');
  const NS_COLOURS = 8;
  /** Rows a list shows at first, and adds with each "more". */
  const PAGE = 100;
  const state = { search: { q: '', namespace: '', status: '', tags: '', since: '', until: '', branch: false, stale: false, unreviewed: false }, graph: { q: '', namespace: '' }, file: '' };
  /** Memories forgotten from this page, newest last: what undo restores. */
  const forgotten = [];
  let inflight = null;
  let renderSeq = 0;

  // ---------------------------------------------------------------- DOM

  /** An element with attributes and children; strings become text nodes. */
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k === 'text') el.textContent = v;
      else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    append(el, children);
    return el;
  }

  function append(el, children) {
    for (const c of children.flat(Infinity)) {
      if (c === undefined || c === null || c === false) continue;
      el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    }
    return el;
  }

  /** Replaces an element's children (arrays flattened, nulls left out). */
  function fill(el, ...children) {
    el.replaceChildren();
    return append(el, children);
  }

  const SVG = 'http://www.w3.org/2000/svg';
  function s(tag, attrs, ...children) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') el.setAttribute('class', v);
      else if (k === 'text') el.textContent = v;
      else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, String(v));
    }
    return append(el, children);
  }

  function nsClass(ns) {
    let n = 0;
    for (const ch of ns) n = (n * 31 + ch.charCodeAt(0)) >>> 0;
    return `ns-${n % NS_COLOURS}`;
  }

  function memoryHref(id) {
    return `#/m/${encodeURIComponent(id)}`;
  }

  function fileHref(path, line) {
    return `#/file/${encodeURIComponent(path)}${line ? `?line=${line}` : ''}`;
  }

  function age(iso) {
    const t = Date.parse(iso);
    if (Number.isNaN(t)) return '';
    const d = (Date.now() - t) / 1000;
    if (d < 60) return 'now';
    if (d < 3600) return `${Math.floor(d / 60)}m`;
    if (d < 86400) return `${Math.floor(d / 3600)}h`;
    if (d < 86400 * 60) return `${Math.floor(d / 86400)}d`;
    if (d < 86400 * 730) return `${Math.floor(d / (86400 * 30))}mo`;
    return `${Math.floor(d / (86400 * 365))}y`;
  }

  function day(iso) {
    return (iso || '').slice(0, 10);
  }

  function toast(children, sticky) {
    fill(toastEl, children);
    toastEl.hidden = false;
    clearTimeout(toast.timer);
    if (!sticky) toast.timer = setTimeout(() => (toastEl.hidden = true), 4000);
  }

  function showError(err) {
    fill(main, h('p', { class: 'error', role: 'alert', text: err instanceof Error ? err.message : String(err) }));
  }

  // ---------------------------------------------------------------- markdown, safely

  /** Only http and https addresses become links; anything else stays text. */
  function safeUrl(text) {
    if (!/^https?:\/\//i.test(text)) return null;
    try {
      const u = new URL(text);
      return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
    } catch {
      return null;
    }
  }

  const INLINE = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(!?\[[^\]\n]*\]\([^)\s]*\))|(https?:\/\/[^\s<>()"']+)|(\*[^*\s][^*\n]*\*)|(\b_[^_\s][^_\n]*_\b)/g;

  /** A line of markdown as text nodes, code, strong, em and safe links. */
  function inline(text) {
    const out = [];
    let last = 0;
    for (const m of text.matchAll(INLINE)) {
      if (m.index > last) out.push(text.slice(last, m.index));
      const t = m[0];
      if (m[1]) out.push(h('code', { text: t.slice(1, -1) }));
      else if (m[2]) out.push(h('strong', {}, inline(t.slice(2, -2))));
      else if (m[3]) {
        const image = t.startsWith('!');
        const close = t.lastIndexOf('](');
        const label = t.slice(image ? 2 : 1, close);
        const url = safeUrl(t.slice(close + 2, -1));
        // Images are never loaded: their text is shown.
        if (url && !image) out.push(h('a', { href: url, rel: 'noopener noreferrer nofollow', target: '_blank' }, label || url));
        else out.push(t);
      } else if (m[4]) {
        const trimmed = t.replace(/[.,;:!?]+$/, '');
        const url = safeUrl(trimmed);
        out.push(url ? h('a', { href: url, rel: 'noopener noreferrer nofollow', target: '_blank' }, trimmed) : trimmed);
        if (trimmed.length < t.length) out.push(t.slice(trimmed.length));
      } else if (m[5]) out.push(h('em', {}, inline(t.slice(1, -1))));
      else if (m[6]) out.push(h('em', {}, inline(t.slice(1, -1))));
      last = m.index + t.length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }

  /** Markdown as DOM: paragraphs, headings, lists, quotes, fenced code. No HTML is ever interpreted. */
  function markdown(text) {
    const root = h('div', { class: 'body md' });
    const lines = String(text || '').replace(/\r\n?/g, '\n').split('\n');
    let i = 0;
    let para = [];
    const flush = () => {
      if (para.length) root.append(h('p', {}, inline(para.join(' '))));
      para = [];
    };
    while (i < lines.length) {
      const line = lines[i];
      const fence = /^\s*(```|~~~)/.exec(line);
      if (fence) {
        flush();
        const body = [];
        i++;
        while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
        i++;
        root.append(h('pre', {}, h('code', { text: body.join('\n') })));
        continue;
      }
      const heading = /^(#{1,6})\s+(.*)$/.exec(line);
      if (heading) {
        flush();
        root.append(h(`h${Math.min(6, heading[1].length + 2)}`, {}, inline(heading[2])));
        i++;
        continue;
      }
      const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line);
      if (item) {
        flush();
        const ordered = /\d/.test(item[1]);
        const list = h(ordered ? 'ol' : 'ul', {});
        while (i < lines.length) {
          const it = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(lines[i]);
          if (!it || /\d/.test(it[1]) !== ordered) break;
          list.append(h('li', {}, inline(it[2])));
          i++;
        }
        root.append(list);
        continue;
      }
      if (/^\s*>/.test(line)) {
        flush();
        const quote = [];
        while (i < lines.length && /^\s*>/.test(lines[i])) quote.push(lines[i++].replace(/^\s*>\s?/, ''));
        root.append(h('blockquote', {}, h('p', {}, inline(quote.join(' ')))));
        continue;
      }
      if (!line.trim()) flush();
      else para.push(line.trim());
      i++;
    }
    flush();
    if (!root.childNodes.length) root.append(h('p', { class: 'muted', text: '(no body)' }));
    return root;
  }

  // ---------------------------------------------------------------- data

  async function api(view, params) {
    if (EXPORTED) return exportedApi(view, params || new URLSearchParams());
    if (inflight && view === 'search') inflight.abort();
    const ctl = new AbortController();
    if (view === 'search') inflight = ctl;
    const res = await fetch(`/api/${view}?${params || ''}`, { headers: { accept: 'application/json' }, signal: ctl.signal, credentials: 'same-origin' });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error || `${res.status} ${res.statusText}`);
    return body;
  }

  async function act(action, payload) {
    if (EXPORTED) throw new Error('this is an exported page: changes are made with git mem ui or the commands');
    const res = await fetch(`/api/action/${action}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(payload), credentials: 'same-origin' });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error || `${res.status} ${res.statusText}`);
    return body;
  }

  // ---------------------------------------------------------------- rows

  function rowItem(r, extra) {
    const badges = [];
    if (r.status !== 'active') badges.push(h('span', { class: `badge ${r.status}`, text: r.status }));
    if (r.stale) badges.push(h('span', { class: 'badge stale', title: r.stale, text: 'stale' }));
    if (r.reach && r.reach !== 'head' && r.reach !== 'not-a-commit') badges.push(h('span', { class: 'badge unmerged', text: r.reach === 'branch' || r.reach === 'remote' || r.reach === 'tag' ? 'unmerged' : 'on no branch' }));
    if (r.trusted === false) badges.push(h('span', { class: 'badge unreviewed', text: 'unreviewed' }));
    if (r.moved) badges.push(h('span', { class: 'badge moved', title: r.moved.text, text: 'moved' }));
    // Trust on every row: trusted or waiting for review, and who brought it.
    const trust = r.trusted === undefined ? null : h('span', { class: `trust ${r.trusted ? 'trusted' : 'waiting'}`, title: r.provenance || '' }, r.trusted ? '✓ trusted' : '⚠ unreviewed', r.provenance ? ` · ${r.provenance}` : '');
    const sub = [r.id, r.stale ? ` · ${r.stale}` : '', r.tags && r.tags.length ? ` · ${r.tags.join(', ')}` : '', r.moved ? [' · ', h('span', { class: 'moved-from', text: r.moved.text })] : '', extra || '', trust ? [' · ', trust] : ''];
    return h(
      'li',
      { class: 'item' },
      h(
        'a',
        { class: 'open', href: memoryHref(r.id), 'data-id': r.id },
        h('span', { class: `ns ${nsClass(r.namespace)}`, text: r.namespace }),
        h('span', { class: 'summary' }, r.summary, badges),
        h('span', { class: 'meta', title: r.created, text: `${age(r.created)}${r.score !== undefined ? ` · ${r.score}` : ''}` }),
        h('span', { class: 'sub mono' }, sub),
      ),
    );
  }

  // ---------------------------------------------------------------- views

  let namespaces = null;
  async function namespaceOptions(selected) {
    if (!namespaces) namespaces = (await api('namespaces')).namespaces;
    return [h('option', { value: '', text: 'all namespaces' }), ...namespaces.filter((n) => n.count > 0 || n.name === selected).map((n) => h('option', { value: n.name, selected: n.name === selected, text: `${n.name} (${n.count})` }))];
  }

  function searchParams() {
    const p = new URLSearchParams();
    const f = state.search;
    if (f.q) p.set('q', f.q);
    for (const k of ['namespace', 'status', 'tags', 'since', 'until']) if (f[k]) p.set(k, f[k]);
    for (const k of ['branch', 'stale', 'unreviewed']) if (f[k]) p.set(k, '1');
    if (f.limit > PAGE) p.set('limit', String(f.limit));
    return p;
  }

  async function searchView(params) {
    const f = state.search;
    for (const k of ['q', 'namespace', 'status', 'tags', 'since', 'until']) f[k] = params.get(k) || '';
    for (const k of ['branch', 'stale', 'unreviewed']) f[k] = params.get(k) === '1';
    f.limit = Math.max(PAGE, Number(params.get('limit')) || PAGE);
    const input = h('input', { class: 'search', type: 'search', id: 'q', placeholder: 'Search memories… (recall’s ranking)', 'aria-label': 'Search memories', value: f.q, autocomplete: 'off', spellcheck: 'false' });
    const results = h('div', { id: 'results', 'aria-live': 'polite' });
    const field = (name, label, type) => {
      const el = h('input', { type: type || 'text', name, value: f[name], 'aria-label': label, placeholder: label });
      el.addEventListener('change', () => update(name, el.value));
      return h('label', {}, label, el);
    };
    const check = (name, label) => {
      const el = h('input', { type: 'checkbox', name, checked: f[name] });
      el.addEventListener('change', () => update(name, el.checked));
      return h('label', {}, el, label);
    };
    // The namespaces arrive beside the first results, not before them.
    const nsSelect = h('select', { name: 'namespace', 'aria-label': 'Namespace' }, h('option', { value: f.namespace, text: f.namespace || 'all namespaces' }));
    const options = namespaceOptions(f.namespace).then((o) => fill(nsSelect, o));
    nsSelect.addEventListener('change', () => update('namespace', nsSelect.value));
    const stSelect = h('select', { name: 'status', 'aria-label': 'Status' }, ['', 'active', 'resolved', 'archived'].map((v) => h('option', { value: v, selected: v === f.status, text: v || 'any status' })));
    stSelect.addEventListener('change', () => update('status', stSelect.value));
    const filters = h('div', { class: 'filters' }, nsSelect, stSelect, field('tags', 'tags'), field('since', 'since'), field('until', 'until'), check('branch', 'on this branch'), check('stale', 'stale'), check('unreviewed', 'unreviewed'));
    fill(main, h('h1', { class: 'visually-hidden', text: 'Search' }), input, filters, results);
    let timer = null;
    const typed = () => {
      if (input.value === f.q) return;
      f.q = input.value;
      f.limit = PAGE;
      clearTimeout(timer);
      // Every keystroke searches; a burst of them is one request.
      timer = setTimeout(() => run(), 25);
    };
    input.addEventListener('input', typed);
    // Escape or the clear button of a search field empties it with a 'search' event, not 'input'.
    input.addEventListener('search', typed);
    input.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' || (e.key === 'Enter' && !e.isComposing)) {
        const first = results.querySelector('a.open');
        if (first) {
          e.preventDefault();
          if (e.key === 'Enter') location.hash = first.getAttribute('href');
          else first.focus();
        }
      }
    });
    function update(name, value) {
      f[name] = value;
      f.limit = PAGE;
      run();
    }
    async function run() {
      const p = searchParams();
      const seq = ++renderSeq;
      history.replaceState(null, '', `#/${p.toString() ? `?${p}` : ''}`);
      const started = performance.now();
      try {
        const r = await api('search', p);
        if (seq !== renderSeq) return;
        const took = Math.round(performance.now() - started);
        fill(results, 
          h('div', { class: 'count', id: 'count', 'data-ms': took }, `${r.rows.length} ${r.rows.length === 1 ? 'memory' : 'memories'}${r.query ? ` for “${r.query}”` : ', newest first'}`),
          r.notice ? h('p', { class: 'notice', text: r.notice }) : null,
          h('ul', { class: 'list' }, r.rows.map((row) => rowItem(row))),
          r.rows.length >= f.limit
            ? h('button', { type: 'button', id: 'more', class: 'more', onclick: () => {
                f.limit += PAGE;
                run();
              } }, `Show ${PAGE} more`)
            : null,
        );
        document.body.dataset.ready = String(seq);
      } catch (err) {
        if (err && err.name === 'AbortError') return;
        fill(results, h('p', { class: 'error', role: 'alert', text: err.message }));
      }
    }
    await Promise.all([run(), options.catch(() => {})]);
    if (!document.activeElement || document.activeElement === document.body || document.activeElement === main) input.focus();
  }

  async function memoryView(id) {
    const v = await api('memory', new URLSearchParams({ id }));
    const m = v.memory;
    const badges = [h('span', { class: `badge ${m.status}`, text: m.status })];
    if (v.stale) badges.push(h('span', { class: 'badge stale', text: `stale: ${v.stale.text}` }));
    if (v.reach && v.reach !== 'head' && v.reach !== 'not-a-commit') badges.push(h('span', { class: 'badge unmerged', text: v.reach }));
    if (v.trusted === false) badges.push(h('span', { class: 'badge unreviewed', text: 'unreviewed' }));
    const actions = EXPORTED
      ? null
      : h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', id: 'edit', onclick: () => editForm(v) }, 'Edit ', h('kbd', { text: 'e' })),
          m.status !== 'resolved' ? h('button', { type: 'button', id: 'resolve', onclick: () => resolve(m.id) }, 'Resolve ', h('kbd', { text: 'r' })) : null,
          v.trusted === false ? h('button', { type: 'button', id: 'accept', onclick: () => accept(m.id) }, 'Accept (review)') : null,
          h('button', { type: 'button', id: 'forget', class: 'danger', onclick: () => forget(m.id) }, 'Forget ', h('kbd', { text: 'x' })),
        );
    const fact = (label, value) => (value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length) ? null : [h('dt', { text: label }), h('dd', {}, value)]);
    const scope = m.paths.map((p) => {
      const [file, lines] = splitScope(p);
      return h('a', { href: fileHref(file, lines ? lines.split('-')[0] : ''), class: 'mono' }, p);
    });
    const facts = h(
      'dl',
      { class: 'facts' },
      fact('id', h('code', { text: m.id })),
      fact('namespace', h('span', { class: `ns ${nsClass(m.namespace)}`, text: m.namespace })),
      fact('author', m.author),
      fact('created', `${m.created} (${age(m.created)} ago)`),
      fact('updated', m.updated !== m.created ? `${m.updated} (${age(m.updated)} ago)` : null),
      fact('tags', m.tags.join(', ')),
      fact('scope', scope.length ? join(scope, ', ') : null),
      fact('spec', m.spec),
      fact('source', m.source ? `${m.source}${m.confidence !== null ? ` (confidence ${m.confidence})` : ''}` : null),
      fact('provenance', v.provenance ? `${v.provenance.text}; ${v.trusted ? 'trusted' : 'waits for review'}` : null),
      fact('revision', v.provenance && v.provenance.commit ? h('code', { text: `notes commit ${v.provenance.commit.slice(0, 12)}` }) : null),
      fact('staleness', v.stale ? v.stale.text : 'its files have not changed since'),
      fact('moved', v.moved ? h('span', { class: 'moved-from', id: 'moved', text: v.moved.text }) : null),
    );
    const links = v.links.length
      ? h(
          'ul',
          { class: 'list', id: 'links' },
          v.links.map((l) =>
            h('li', { class: 'item' }, l.id ? h('a', { class: 'open', href: memoryHref(l.id), 'data-id': l.id }, h('span', { class: 'muted', text: l.kind }), h('span', { class: 'summary', text: l.summary }), h('span', { class: 'meta', text: l.status })) : h('span', { class: 'muted' }, `${l.kind}: ${l.ref} (not found)`)),
          ),
        )
      : h('p', { class: 'muted', text: 'No links to other memories.' });
    const commit = v.commit
      ? [
          h('p', {}, h('code', { text: v.commit.sha.slice(0, 12) }), ' ', h('strong', { text: v.commit.subject }), h('span', { class: 'muted' }, ` — ${v.commit.author}, ${v.commit.date}`), v.commit.parents.length > 1 ? h('span', { class: 'badge', text: 'merge' }) : null),
          v.files.length
            ? h(
                'ul',
                { class: 'files' },
                v.files.map((f) => h('li', {}, h('span', { class: 'st', text: f.status }), h('a', { href: fileHref(f.path), class: 'mono' }, f.path))),
                v.filesOmitted ? h('li', { class: 'muted', text: `and ${v.filesOmitted} more` }) : null,
              )
            : null,
        ]
      : h('p', { class: 'muted', text: v.notice || 'No commit.' });
    const diffs = (v.diff || []).map(diffBlock);
    const revisions = (v.revisions || []).length
      ? h(
          'ol',
          { class: 'revisions', id: 'revisions' },
          v.revisions.map((r, i) =>
            h(
              'li',
              {},
              h(
                'details',
                {},
                h(
                  'summary',
                  {},
                  h('span', { class: 'mono', text: new Date(r.time * 1000).toISOString().replace('T', ' ').slice(0, 16) }),
                  ` ${r.author} `,
                  r.kind === 'tombstone' ? h('span', { class: 'badge unreviewed', text: 'forgotten' }) : [r.status !== 'active' ? h('span', { class: `badge ${r.status}`, text: r.status }) : null, ' ', h('span', { text: r.summary })],
                  i === 0 ? h('span', { class: 'badge', text: 'current' }) : null,
                ),
                r.kind === 'memory' ? h('pre', { class: 'revision-body', text: r.body || '(no body)' }) : h('p', { class: 'muted', text: `forgotten at ${r.updated}` }),
                h('p', { class: 'muted mono', text: `notes commit ${r.commit.slice(0, 12)}, revision of ${r.updated}` }),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted', text: 'No history of its note here.' });
    fill(main, 
      h('div', { class: 'memory-head' }, h('div', {}, h('h1', { id: 'summary' }, m.summary), h('div', {}, badges)), actions),
      h('div', { id: 'editor' }),
      h('section', { id: 'text' }, markdown(m.body)),
      facts,
      h('h2', { text: 'Links' }),
      links,
      h('h2', { text: 'Revisions' }),
      revisions,
      h('h2', { text: 'Commit' }),
      commit,
      diffs.length ? [h('h2', { text: m.paths.length ? 'Diff of its scope' : 'Diff of its commit' }), diffs] : null,
    );
    document.body.dataset.memory = m.id;
  }

  function join(nodes, sep) {
    return nodes.flatMap((n, i) => (i ? [sep, n] : [n]));
  }

  function splitScope(entry) {
    const m = /^(.+?):(\d+(?:-\d+)?)$/.exec(entry);
    return m ? [m[1], m[2]] : [entry, ''];
  }

  function diffBlock(d) {
    const title = h('div', { class: 'diff-title mono' }, h('a', { href: fileHref(d.path) }, d.path), d.ranges.length ? ` lines ${d.ranges.map((r) => (r[0] === r[1] ? r[0] : `${r[0]}-${r[1]}`)).join(', ')}` : '');
    if (!d.hunks) return h('div', { class: 'diff' }, title, h('p', { class: 'muted', text: d.note }));
    const rows = [];
    d.hunks.forEach((hunk, i) => {
      if (i) rows.push(h('tr', { class: 'gap' }, h('td', { class: 'dn' }), h('td', { class: 'dn' }), h('td', { class: 'dt', text: '…' })));
      for (const l of hunk.lines) rows.push(h('tr', { class: l.op === '+' ? 'add' : l.op === '-' ? 'del' : '' }, h('td', { class: 'dn mono', text: l.old ?? '' }), h('td', { class: 'dn mono', text: l.new ?? '' }), h('td', { class: 'dt mono', text: `${l.op}${l.text}` })));
    });
    return h('div', { class: 'diff' }, title, rows.length ? h('table', {}, h('tbody', {}, rows)) : h('p', { class: 'muted', text: 'no change in these lines' }));
  }

  function editForm(v) {
    const m = v.memory;
    const editor = document.getElementById('editor');
    if (editor.childNodes.length) return;
    const summary = h('input', { type: 'text', name: 'summary', value: m.summary, maxlength: '100' });
    const tags = h('input', { type: 'text', name: 'tags', value: m.tags.join(', ') });
    const paths = h('input', { type: 'text', name: 'paths', value: m.paths.join(', ') });
    const status = h('select', { name: 'status' }, ['active', 'resolved', 'archived'].map((s2) => h('option', { value: s2, selected: s2 === m.status, text: s2 })));
    const body = h('textarea', { name: 'body' });
    body.value = m.body;
    const save = async () => {
      const change = { id: m.id };
      if (summary.value !== m.summary) change.summary = summary.value;
      if (body.value !== m.body) change.body = body.value;
      if (tags.value !== m.tags.join(', ')) change.tags = tags.value;
      if (paths.value !== m.paths.join(', ')) change.paths = paths.value;
      if (status.value !== m.status) change.status = status.value;
      if (Object.keys(change).length === 1) {
        editor.replaceChildren();
        return;
      }
      try {
        const r = await act('edit', change);
        toast([`Saved ${r.id}`]);
        await route();
      } catch (err) {
        toast([`Not saved: ${err.message}`]);
      }
    };
    const form = h(
      'form',
      { class: 'edit', id: 'edit-form' },
      h('label', {}, 'Summary', summary),
      h('label', {}, 'Tags (comma-separated)', tags),
      h('label', {}, 'Scope (files, optionally file:from-to)', paths),
      h('label', {}, 'Status', status),
      h('label', {}, 'Body (markdown)', body),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'save' }, 'Save ', h('kbd', { text: 'Ctrl+Enter' })), h('button', { type: 'button', onclick: () => editor.replaceChildren() }, 'Cancel ', h('kbd', { text: 'Esc' }))),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      save();
    });
    form.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        save();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        editor.replaceChildren();
      }
    });
    fill(editor, form);
    summary.focus();
  }

  async function resolve(id) {
    try {
      await act('resolve', { id });
      toast([`Resolved ${id}`]);
      await route();
    } catch (err) {
      toast([`Not resolved: ${err.message}`]);
    }
  }

  async function accept(id) {
    try {
      await act('accept', { id });
      toast([`Accepted ${id}`]);
      await route();
    } catch (err) {
      toast([`Not accepted: ${err.message}`]);
    }
  }

  async function forget(id) {
    try {
      await act('forget', { id });
      forgotten.push(id);
      toast([`Forgot ${id}.`, h('button', { type: 'button', id: 'undo', onclick: () => undo() }, 'Undo ', h('kbd', { text: 'u' }))], true);
      location.hash = `#/${searchParams().toString() ? `?${searchParams()}` : ''}`;
    } catch (err) {
      toast([`Not forgotten: ${err.message}`]);
    }
  }

  async function undo() {
    const id = forgotten.pop();
    if (!id) return;
    try {
      const r = await act('restore', { id });
      toast([`Restored ${r.id}`]);
      location.hash = memoryHref(r.id);
      await route();
    } catch (err) {
      forgotten.push(id);
      toast([`Not restored: ${err.message}`], true);
    }
  }

  async function fileView(path, params) {
    state.file = path;
    const input = h('input', { type: 'text', class: 'search', id: 'path', value: path, placeholder: 'A file of the repository, e.g. src/main.ts', 'aria-label': 'File path' });
    const form = h('form', { class: 'filters' }, input, h('button', { type: 'submit' }, 'Open'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      location.hash = fileHref(input.value.trim());
    });
    if (!path) {
      fill(main, h('h1', { text: 'A file and its memories' }), form, h('p', { class: 'muted', text: 'The memories about a file, by line range, beside its text at HEAD (what git mem blame shows).' }));
      input.focus();
      return;
    }
    const v = await api('file', new URLSearchParams({ path }));
    const marks = new Map();
    v.memories.forEach((m, i) => {
      for (const [a, b] of m.ranges) for (let l = a; l <= Math.min(b, a + 5000); l++) marks.set(l, [...(marks.get(l) || []), i]);
    });
    const table = v.lines
      ? h(
          'table',
          {},
          h(
            'tbody',
            {},
            v.lines.map((text, i) => h('tr', { id: `L${i + 1}`, class: marks.has(i + 1) ? 'marked' : null, title: marks.has(i + 1) ? marks.get(i + 1).map((k) => v.memories[k].summary).join('\n') : null }, h('td', { class: 'ln mono', text: i + 1 }), h('td', { class: 'lt mono', text }))),
          ),
        )
      : h('p', { class: 'muted', text: v.note });
    const code = h('div', { class: 'code', id: 'code' }, table);
    const highlight = (m) => {
      for (const el of code.querySelectorAll('tr.hot')) el.classList.remove('hot');
      for (const [a, b] of m.ranges) for (let l = a; l <= b; l++) code.querySelector(`#L${l}`)?.classList.add('hot');
      code.querySelector(`#L${m.ranges[0]?.[0]}`)?.scrollIntoView({ block: 'center' });
    };
    const cards = v.memories.map((m) =>
      h(
        'div',
        { class: 'card' },
        h('span', { class: `ns ${nsClass(m.namespace)}`, text: m.namespace }),
        m.stale ? h('span', { class: 'badge stale', title: m.stale, text: 'stale' }) : null,
        h('div', { class: 'summary' }, h('a', { href: memoryHref(m.id), class: 'open', 'data-id': m.id }, m.summary)),
        h('div', { class: 'muted' }, m.ranges.length ? `lines ${m.ranges.map((r) => (r[0] === r[1] ? r[0] : `${r[0]}-${r[1]}`)).join(', ')}` : 'the whole file', ` · ${m.why.join(' and ')} · ${age(m.created)}`),
        m.trusted === undefined ? null : h('div', { class: `trust ${m.trusted ? 'trusted' : 'waiting'}`, title: m.provenance || '' }, m.trusted ? '✓ trusted' : '⚠ unreviewed', m.provenance ? ` · ${m.provenance}` : ''),
        m.moved ? h('div', { class: 'moved-from', text: m.moved.text }) : null,
        m.ranges.length && v.lines ? h('button', { type: 'button', onclick: () => highlight(m) }, 'Show lines') : null,
      ),
    );
    fill(main, 
      form,
      h('h1', { class: 'mono', id: 'file-title' }, v.path),
      h('p', { class: 'count' }, `${v.memories.length} ${v.memories.length === 1 ? 'memory' : 'memories'} about this file`),
      h('div', { class: 'file-grid' }, code, h('aside', { class: 'cards', 'aria-label': 'Memories' }, cards.length ? cards : h('p', { class: 'muted', text: 'No memory is about this file.' }))),
    );
    const line = Number(params.get('line'));
    if (line) code.querySelector(`#L${line}`)?.scrollIntoView({ block: 'center' });
  }

  async function timelineView() {
    const v = await api('timeline', new URLSearchParams());
    const byDay = new Map();
    for (const r of v.recent) byDay.set(day(r.created), [...(byDay.get(day(r.created)) || []), r]);
    const commits = v.commits.length
      ? h(
          'ol',
          { class: 'commits', id: 'commits' },
          v.commits.map((c) =>
            h(
              'li',
              { class: [c.memories.length ? 'has' : '', c.merge ? 'merge' : '', c.side ? 'side' : ''].filter(Boolean).join(' ') || null, 'data-commit': c.commit },
              h(
                'div',
                {},
                h('code', { text: c.commit.slice(0, 7) }),
                ' ',
                c.merge ? h('span', { class: 'badge merge', title: `parents ${c.parents.map((p) => p.slice(0, 7)).join(', ')}`, text: 'merge' }) : null,
                c.merge ? ' ' : null,
                h('span', { class: 'subject', text: c.subject }),
              ),
              c.merge ? h('p', { class: 'muted joins', text: `joins ${c.parents.slice(1).map((p) => p.slice(0, 7)).join(', ')}${c.joins ? `: ${c.joins} ${c.joins === 1 ? 'commit' : 'commits'} of its branch, beside the line below` : ''}` }) : null,
              c.memories.length ? h('ul', { class: 'list' }, c.memories.map((r) => rowItem(r))) : null,
              c.more ? h('p', { class: 'muted', text: `and ${c.more} more on this commit` }) : null,
            ),
          ),
        )
      : h('p', { class: 'muted', text: 'No commits here.' });
    fill(main, 
      h('h1', { text: 'Timeline' }),
      h(
        'div',
        { class: 'timeline' },
        h('section', {}, h('h2', {}, 'Along the branch ', h('code', { text: v.range })), commits),
        h('section', {}, h('h2', { text: 'By time' }), [...byDay].map(([d, rs]) => [h('h3', { text: d }), h('ul', { class: 'list' }, rs.map((r) => rowItem(r)))])),
      ),
    );
  }

  async function graphView(params) {
    const g = state.graph;
    g.q = params.get('q') || '';
    g.namespace = params.get('namespace') || '';
    const q = h('input', { type: 'search', name: 'q', value: g.q, placeholder: 'words (else the newest)', 'aria-label': 'Graph query' });
    const ns = h('select', { name: 'namespace', 'aria-label': 'Namespace' }, await namespaceOptions(g.namespace));
    const form = h('form', { class: 'filters' }, ns, q, h('button', { type: 'submit' }, 'Draw'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const p = new URLSearchParams();
      if (q.value.trim()) p.set('q', q.value.trim());
      if (ns.value) p.set('namespace', ns.value);
      location.hash = `#/graph${p.toString() ? `?${p}` : ''}`;
    });
    const p = new URLSearchParams();
    if (g.q) p.set('q', g.q);
    if (g.namespace) p.set('namespace', g.namespace);
    const v = await api('graph', p);
    const W = 1100;
    const H = 560;
    const pos = layout(v.nodes.length, v.edges, W, H);
    const svg = s('svg', { class: 'graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${v.nodes.length} memories and ${v.edges.length} links` });
    for (const e of v.edges) svg.append(s('line', { class: e.kind.replace(/\s.*/, ''), x1: pos[e.from].x, y1: pos[e.from].y, x2: pos[e.to].x, y2: pos[e.to].y }, s('title', { text: e.kind })));
    const linked = new Set(v.edges.flatMap((e) => [e.from, e.to]));
    v.nodes.forEach((n, i) => {
      const a = s('a', { href: memoryHref(n.id), 'data-id': n.id });
      a.append(s('title', { text: `${n.namespace}: ${n.summary}` }), s('circle', { class: `${nsClass(n.namespace)} ${n.status}`, cx: pos[i].x, cy: pos[i].y, r: linked.has(i) ? 7 : 5 }));
      if (linked.has(i) || v.nodes.length <= 40) a.append(s('text', { x: pos[i].x + 9, y: pos[i].y + 4, text: n.summary.length > 28 ? `${n.summary.slice(0, 27)}…` : n.summary }));
      svg.append(a);
    });
    fill(main, 
      h('h1', { text: 'Graph of links' }),
      form,
      h('p', { class: 'count' }, `${v.nodes.length} memories, ${v.edges.length} links`),
      h('div', { class: 'graph-wrap' }, svg, h('div', { class: 'legend' }, 'grey: related', ' · green: consolidated', ' · red dashed: superseded', ' · colour of a dot: its namespace')),
    );
  }

  /** Force-directed positions, deterministic: linked memories pull together, all push apart. */
  function layout(n, edges, W, H) {
    const pos = [];
    for (let i = 0; i < n; i++) {
      const a = i * 2.399963;
      const r = 20 * Math.sqrt(i + 1);
      pos.push({ x: W / 2 + r * Math.cos(a), y: H / 2 + r * Math.sin(a) });
    }
    const rounds = n > 100 ? 100 : 200;
    const k = Math.min(140, Math.sqrt((W * H) / Math.max(1, n)) * 0.5);
    for (let round = 0; round < rounds; round++) {
      const t = 20 * (1 - round / rounds) + 1;
      const d = pos.map(() => ({ x: 0, y: 0 }));
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          const dx = pos[i].x - pos[j].x;
          const dy = pos[i].y - pos[j].y;
          const dist = Math.max(0.01, Math.hypot(dx, dy));
          const f = (k * k) / dist / dist;
          d[i].x += dx * f;
          d[i].y += dy * f;
          d[j].x -= dx * f;
          d[j].y -= dy * f;
        }
      }
      for (const e of edges) {
        const dx = pos[e.from].x - pos[e.to].x;
        const dy = pos[e.from].y - pos[e.to].y;
        const dist = Math.max(0.01, Math.hypot(dx, dy));
        const f = dist / k;
        d[e.from].x -= dx * f;
        d[e.from].y -= dy * f;
        d[e.to].x += dx * f;
        d[e.to].y += dy * f;
      }
      for (let i = 0; i < n; i++) {
        // Gravity: a few memories stay near the middle instead of flying to the corners.
        d[i].x += (W / 2 - pos[i].x) * 0.3;
        d[i].y += (H / 2 - pos[i].y) * 0.45;
        const len = Math.max(0.01, Math.hypot(d[i].x, d[i].y));
        pos[i].x = Math.min(W - 160, Math.max(20, pos[i].x + (d[i].x / len) * Math.min(len, t)));
        pos[i].y = Math.min(H - 20, Math.max(20, pos[i].y + (d[i].y / len) * Math.min(len, t)));
      }
    }
    return pos.map((p) => ({ x: Math.round(p.x), y: Math.round(p.y) }));
  }

  // ---------------------------------------------------------------- the exported page's data

  function exportedApi(view, p) {
    const all = EXPORTED.memories;
    const byId = (id) => all.find((m) => m.id === id) || all.find((m) => refers(id, m));
    const asRow = (m) => m;
    if (view === 'namespaces') {
      const counts = new Map();
      for (const m of all) counts.set(m.namespace, (counts.get(m.namespace) || 0) + 1);
      return { namespaces: [...counts].map(([name, count]) => ({ name, count })) };
    }
    if (view === 'search') {
      const q = (p.get('q') || '').toLowerCase().split(/\W+/).filter(Boolean);
      const tags = (p.get('tags') || '').split(',').map((t) => t.trim()).filter(Boolean);
      let rows = all.filter((m) => (!p.get('namespace') || m.namespace === p.get('namespace')) && (!p.get('status') || m.status === p.get('status')) && tags.every((t) => m.tags.includes(t)) && (!p.get('since') || m.created >= p.get('since')) && (!p.get('until') || m.created <= `${p.get('until')}~`) && (!p.get('stale') || m.stale) && (!p.get('unreviewed') || m.trusted === false) && (!p.get('branch') || !m.reach || m.reach === 'head'));
      if (q.length) {
        const score = (m) => q.reduce((s2, w) => s2 + (m.summary.toLowerCase().includes(w) ? 3 : 0) + (m.tags.join(' ').toLowerCase().includes(w) ? 2 : 0) + (m.body.toLowerCase().includes(w) ? 1 : 0), 0);
        rows = rows.map((m) => ({ ...m, score: score(m) })).filter((m) => m.score > 0).sort((a, b) => b.score - a.score);
      }
      return { query: p.get('q') || '', rows: rows.slice(0, 200).map(asRow) };
    }
    if (view === 'memory') {
      const m = byId(p.get('id'));
      if (!m) throw new Error(`no memory ${p.get('id')} in this export`);
      const link = (ref, kind) => {
        const t = all.find((o) => refers(ref, o));
        return { kind, ref, id: t ? t.id : null, summary: t ? t.summary : null, status: t ? t.status : null };
      };
      const links = [...m.relates_to.map((r) => link(r, 'related')), ...m.consolidates.map((r) => link(r, 'consolidates')), ...(m.consolidated_into ? [link(m.consolidated_into, 'consolidated into')] : []), ...m.supersedes.map((r) => link(r, 'supersedes')), ...(m.superseded_by ? [link(m.superseded_by, 'superseded by')] : [])];
      // And the memories that link to this one.
      const seen = new Set(links.map((l) => l.id));
      for (const o of all) if (o.id !== m.id && !seen.has(o.id) && [...o.relates_to, ...o.consolidates, ...o.supersedes, o.consolidated_into, o.superseded_by].some((r) => r && refers(r, m)) && links.length < 100) links.push({ kind: 'linked from', ref: o.id, id: o.id, summary: o.summary, status: o.status });
      const own = Object.hasOwn(EXPORTED.details || {}, m.id) ? EXPORTED.details[m.id] : null;
      const details = own || { revisions: [], commit: null, notice: `commit ${m.commit.slice(0, 12)}${m.commit_subject ? `: ${m.commit_subject}` : ''} (the export holds the history and code of the newest ${EXPORTED.bounds ? EXPORTED.bounds.details : ''} memories)`, files: [], filesOmitted: 0, diff: [] };
      return { memory: m, moved: m.moved || null, stale: m.stale ? { text: m.stale } : null, reach: m.reach, trusted: m.trusted === undefined ? null : m.trusted, provenance: m.provenance ? { text: m.provenance } : null, links, ...details };
    }
    if (view === 'file') {
      const path = p.get('path');
      const exported = Object.hasOwn(EXPORTED.files || {}, path) ? EXPORTED.files[path] : null;
      if (exported) {
        const memories = exported.memories.map((e) => { const m = byId(e.id); return m ? { ...m, ranges: e.ranges, why: e.why } : null; }).filter(Boolean);
        return { path, lines: exported.lines, note: exported.note, memories };
      }
      const memories = all.filter((m) => m.paths.some((e) => splitScope(e)[0] === path)).map((m) => ({ ...m, why: ['scope'], ranges: m.paths.filter((e) => splitScope(e)[0] === path && splitScope(e)[1]).map((e) => splitScope(e)[1].split('-').map(Number)).map((r) => [r[0], r[1] || r[0]]) }));
      return { path, lines: null, note: 'the file’s text is not part of this export', memories };
    }
    if (view === 'timeline') return { range: EXPORTED.range, commits: EXPORTED.commits.map((c) => ({ ...c, more: 0, memories: c.memories.map((id) => byId(id)).filter(Boolean) })), recent: all.slice(0, 300) };
    if (view === 'graph') {
      const q = (p.get('q') || '').toLowerCase();
      const nodes = all.filter((m) => (!p.get('namespace') || m.namespace === p.get('namespace')) && (!q || `${m.summary} ${m.body}`.toLowerCase().includes(q))).slice(0, 150);
      const edges = [];
      nodes.forEach((m, i) => {
        for (const [refs, kind] of [[m.consolidates, 'consolidates'], [m.supersedes, 'supersedes'], [[m.consolidated_into, m.superseded_by].filter(Boolean), 'retired by'], [m.relates_to, 'related']]) {
          for (const ref of refs) {
            const j = nodes.findIndex((n) => refers(ref, n));
            if (j >= 0 && j !== i && !edges.some((e) => (e.from === j && e.to === i) || (e.from === i && e.to === j))) edges.push({ from: i, to: j, kind });
          }
        }
      });
      return { query: q, nodes, edges };
    }
    throw new Error(`unknown view ${view}`);
  }

  /** Whether a link as written (`ns:key`, `ns:commit:key`, a key prefix) names memory m. */
  function refers(ref, m) {
    const parts = String(ref).split(':');
    const key = parts[parts.length - 1];
    if (parts.length > 1 && parts[0] !== m.namespace) return false;
    return key.length >= 4 && m.key.startsWith(key);
  }

  // ---------------------------------------------------------------- routing and keys

  function currentView() {
    const hash = location.hash.replace(/^#/, '') || '/';
    const [path, query] = hash.split('?');
    return { path, params: new URLSearchParams(query || '') };
  }

  async function route() {
    const { path, params } = currentView();
    const seq = ++renderSeq;
    delete document.body.dataset.ready;
    let name = 'search';
    try {
      if (path.startsWith('/m/')) {
        name = 'memory';
        await memoryView(decodeURIComponent(path.slice(3)));
      } else if (path.startsWith('/file')) {
        name = 'file';
        await fileView(decodeURIComponent(path.slice(6)), params);
      } else if (path === '/timeline') {
        name = 'timeline';
        await timelineView();
      } else if (path === '/graph') {
        name = 'graph';
        await graphView(params);
      } else await searchView(params);
    } catch (err) {
      if (seq === renderSeq) showError(err);
    }
    for (const a of document.querySelectorAll('.top nav a')) {
      if (a.dataset.view === name) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    document.body.dataset.view = name;
    if (seq === renderSeq || name !== 'search') document.body.dataset.ready = String(renderSeq);
    if (name !== 'search') main.focus({ preventScroll: true });
  }

  function typing(target) {
    return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || (target && target.isContentEditable);
  }

  function move(step) {
    const items = [...main.querySelectorAll('a.open')];
    if (!items.length) return;
    const at = items.indexOf(document.activeElement);
    const next = items[Math.max(0, Math.min(items.length - 1, at < 0 ? (step > 0 ? 0 : items.length - 1) : at + step))];
    next.focus();
    next.scrollIntoView({ block: 'nearest' });
  }

  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (typing(e.target)) {
      if (e.key === 'Escape') e.target.blur();
      return;
    }
    const view = document.body.dataset.view;
    const id = document.body.dataset.memory;
    const keys = {
      '/': () => {
        if (view !== 'search') location.hash = '#/';
        else document.getElementById('q')?.focus();
      },
      s: () => keys['/'](),
      t: () => (location.hash = '#/timeline'),
      g: () => (location.hash = '#/graph'),
      f: () => (location.hash = `#/file${state.file ? `/${encodeURIComponent(state.file)}` : ''}`),
      j: () => move(1),
      k: () => move(-1),
      ArrowDown: () => move(1),
      ArrowUp: () => move(-1),
      u: () => undo(),
      Escape: () => history.back(),
    };
    if (view === 'memory' && id && !EXPORTED) {
      keys.e = () => document.getElementById('edit')?.click();
      keys.r = () => document.getElementById('resolve')?.click();
      keys.x = () => document.getElementById('forget')?.click();
    }
    const run = keys[e.key];
    if (run) {
      e.preventDefault();
      run();
    }
  });

  window.addEventListener('hashchange', () => route());
  document.getElementById('mode').textContent = EXPORTED ? `exported ${EXPORTED.generated}: read-only` : 'local · 127.0.0.1';
  route();
})();
