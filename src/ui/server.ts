/**
 * `git mem ui`: a local web server for the memories, on 127.0.0.1 only. Its
 * page, script and style are in the binary (assets/); its JSON API is
 * ui/api.ts over the services. Every request is checked by ui/guard.ts
 * (Host, Origin, token). A request gets the context of the notes as they are:
 * the context is rebuilt when a notes ref moved (a write from the page, a
 * capture in a terminal, a pull).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Chalk } from 'chalk';
import { AppContext } from '../context.ts';
import { GitMemError, NotFoundError } from '../core/errors.ts';
import type { Io } from '../io/io.ts';
import type { Forgotten } from './api.ts';
import { ASSETS } from './assets.ts';
import { checkRequest, cookieName, securityHeaders, TOKEN_HEADER } from './guard.ts';

/** A write's JSON body, at most (a memory's body is at most 100 KiB). */
const MAX_BODY_BYTES = 1024 * 1024;

export interface UiServer {
  url: string;
  port: number;
  /** Answers the first page's questions now (index, caches), so that the page does not wait for them. */
  warm(): Promise<void>;
  close(): Promise<void>;
}

/** The server's own notices go to stderr; it prints nothing else. */
function serverIo(): Io {
  const toErr = (text: string) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  return { stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, color: new Chalk({ level: 0 }), out: toErr, err: toErr, errRaw: (t) => process.stderr.write(t), readStdin: async () => '' };
}

type Api = typeof import('./api.ts');
type View = (ctx: AppContext, p: URLSearchParams) => Promise<unknown>;

const VIEW_NAMES = ['search', 'memory', 'file', 'timeline', 'graph', 'namespaces'] as const;

function viewOf(api: Api, name: (typeof VIEW_NAMES)[number]): View {
  const views: Record<(typeof VIEW_NAMES)[number], View> = {
    search: api.searchView,
    memory: api.memoryView,
    file: api.fileView,
    timeline: api.timelineView,
    graph: api.graphView,
    namespaces: (ctx) => api.namespacesView(ctx),
  };
  return views[name];
}

/** The services behind the API, loaded once the URL is printed: the server starts without them. */
let apiModule: Promise<Api> | undefined;
function loadApi(): Promise<Api> {
  apiModule ??= import('./api.ts');
  return apiModule;
}

function statusOf(err: unknown): number {
  if (err instanceof NotFoundError) return 404;
  if (err instanceof GitMemError) return err.exitCode === 2 ? 400 : 500;
  return 500;
}

function readBody(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new GitMemError('request body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(Object.assign(new GitMemError('request body is not JSON'), { exitCode: 2 }));
      }
    });
    req.on('error', reject);
  });
}

export function startUiServer(options: { cwd: string; env: NodeJS.ProcessEnv; port?: number }): Promise<UiServer> {
  const token = randomBytes(24).toString('base64url');
  const io = serverIo();
  const forgotten: Forgotten = new Map();
  let current: { ctx: AppContext; tips: string } | null = null;
  const tipsOf = (ctx: AppContext) => [...ctx.notes.tips()].map(([ns, oid]) => `${ns}=${oid}`).sort().join(' ');
  /** The context for a request: the same while the notes refs stay where they were. */
  const context = (): AppContext => {
    if (current) {
      if (tipsOf(current.ctx) === current.tips) return current.ctx;
      void current.ctx.close();
    }
    const ctx = new AppContext(options.cwd, options.env, io);
    current = { ctx, tips: tipsOf(ctx) };
    return ctx;
  };
  // One request at a time, in order: a write is done before the read that follows it.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => {});
    return run;
  };

  let port = 0;
  const server = http.createServer((req, res) => {
    const send = (status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}) => {
      res.writeHead(status, { ...securityHeaders(), 'content-type': type, ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const sendJson = (status: number, value: unknown) => send(status, 'application/json; charset=utf-8', JSON.stringify(value));
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const verdict = checkRequest(
      {
        method: req.method ?? 'GET',
        host: header('host'),
        origin: header('origin'),
        fetchSite: header('sec-fetch-site'),
        cookie: header('cookie'),
        tokenHeader: header(TOKEN_HEADER),
        queryToken: url.pathname === '/' ? url.searchParams.get('token') : null,
        contentType: header('content-type'),
      },
      token,
      port,
    );
    if (!verdict.ok) {
      send(verdict.status, 'text/plain; charset=utf-8', `git-mem: ${verdict.reason}\n`);
      return;
    }
    if (verdict.via === 'query') {
      // The token moves into a cookie the page's script cannot read, and out of the address bar.
      send(303, 'text/plain; charset=utf-8', '', { location: '/', 'set-cookie': `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/` });
      return;
    }
    if (url.pathname === '/favicon.ico') {
      send(204, 'image/x-icon', '');
      return;
    }
    const asset = req.method === 'GET' || req.method === 'HEAD' ? ASSETS[url.pathname] : undefined;
    if (asset) {
      send(200, asset.type, asset.body);
      return;
    }
    const name = url.pathname.slice(5);
    const view = url.pathname.startsWith('/api/') && req.method === 'GET' && (VIEW_NAMES as readonly string[]).includes(name) ? (name as (typeof VIEW_NAMES)[number]) : undefined;
    const action = url.pathname.startsWith('/api/action/') && req.method === 'POST' ? url.pathname.slice(12) : undefined;
    if (!view && !action) {
      send(404, 'text/plain; charset=utf-8', 'git-mem: not found\n');
      return;
    }
    void serially(async () => {
      // A search the page already replaced (the next keystroke aborted it) is not run.
      if (view && (res.destroyed || req.socket.destroyed)) return;
      try {
        const api = await loadApi();
        const value = view ? await viewOf(api, view)(context(), url.searchParams) : await api.writeAction(context(), action!, await readBody(req), forgotten);
        sendJson(200, value);
      } catch (err) {
        sendJson(statusOf(err), { error: err instanceof Error ? err.message : String(err) });
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(new GitMemError(err.code === 'EADDRINUSE' ? `port ${options.port} is in use; choose another with --port, or 0 for any` : `cannot listen on 127.0.0.1: ${err.message}`)));
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.address();
      port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}/?token=${token}`,
        port,
        // The first page's own questions, answered once: the index opened, the staleness and placement caches read.
        warm: () =>
          serially(async () => {
            const api = await loadApi();
            const ctx = context();
            await api.namespacesView(ctx);
            await api.searchView(ctx, new URLSearchParams());
          }).catch(() => {}),
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

