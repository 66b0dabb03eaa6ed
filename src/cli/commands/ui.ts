import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { json } from '../../render/render.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

interface UiArgs {
  port: number;
  open: boolean;
  json: boolean;
}

export function uiCommand(ctx: AppContext) {
  return defineCommand({
    command: 'ui',
    describe: 'Browse the memories in a web page: search as you type, a memory with its commit and diff, a file with its memories, a timeline, a graph of links',
    builder: (y) =>
      y
        .option('port', { alias: 'p', type: 'number', default: 0, describe: 'Port on 127.0.0.1; 0: any free one' })
        .option('open', { type: 'boolean', default: true, describe: 'Open the page in the browser (--no-open: only print its URL)' })
        .option('json', { ...jsonOption, describe: 'Print the URL as JSON ({"url", "port"}) for tools' })
        .example('git mem ui', 'Open the memories in the browser')
        .example('git mem ui --no-open --port 8377', 'Serve on a fixed port; print the URL to open')
        .epilogue(
          'The server listens on 127.0.0.1 only, until interrupted (Ctrl-C). The URL it prints holds a random token that every request must carry (the page keeps it in a cookie of its own); requests from other sites or under another host name are refused. The page, its script and its style are in the binary: nothing is fetched from the network. Edits, resolve, forget and review go through the same code as the commands (redaction, no lost writes); forget can be undone while the page stays open. Keys: / search, t timeline, g graph, f file, j/k move, Enter open, e edit, r resolve, x forget, u undo, Esc back.',
        ) as never,
    parse: (argv: UiArgs) => {
      if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535) throw new UsageError('--port must be a whole number from 0 to 65535');
      return { port: argv.port, open: argv.open, json: argv.json };
    },
    run: async (o) => {
      // Outside a repository: the one-line error of every command, not a page of errors.
      void ctx.repo;
      const { startUiServer } = await import('../../ui/server.ts');
      return startUiServer({ cwd: ctx.cwd, env: ctx.env, port: o.port });
    },
    render: async (server, o) => {
      ctx.io.out(o.json ? json({ url: server.url, port: server.port }) : server.url);
      if (!o.json) ctx.io.err('git-mem: serving the memories on 127.0.0.1 until interrupted (Ctrl-C)');
      if (o.open) {
        const { openUrl } = await import('../../io/open-url.ts');
        openUrl(server.url, (m) => ctx.io.err(`git-mem: ${m}`));
      }
      void server.warm();
      await new Promise<void>((resolve) => {
        const stop = () => void server.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    },
  });
}
