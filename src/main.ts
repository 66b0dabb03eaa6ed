/** Entry point: the only place that sets the exit code. Heavy modules load only when a command needs them. */
import { tracePhase } from './io/trace.ts';
import { VERSION } from './version.ts';

/**
 * Commands that query the SQLite index: start compiling sql.js's wasm at once, so it overlaps
 * argument parsing and git calls. The others do not: a compile nobody waits for still keeps the
 * process alive until it ends (about 20 ms at 10,000 memories). list, namespaces, lexical recall,
 * the hooks, and finding a memory by id (show, edit, forget, hydrate) read the term index alone
 * (stores/index/term-index.ts); semantic recall starts the compile itself, once it finds a model.
 */
const INDEX_COMMANDS = new Set(['export', 'import', 'index', 'pull', 'sync']);

/** Whether a command surely needs sql.js. */
function needsIndexEngine(argv: readonly string[]): boolean {
  return INDEX_COMMANDS.has(argv[0] ?? '') && !argv.includes('--help') && !argv.includes('-h');
}

function preloadIndexEngine(): void {
  import('./stores/index/sqljs.ts').then((m) => m.loadSqlJs()).catch(() => {});
}

function exitCodeFor(err: unknown): number {
  const code = (err as { exitCode?: unknown } | null)?.exitCode;
  return typeof code === 'number' ? code : 1;
}

async function main(argv: string[]): Promise<number> {
  tracePhase('main');
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    process.stdout.write(`git-mem ${VERSION}\n`);
    return 0;
  }
  if (argv[0] === '__complete') {
    // Shell completion: must answer in milliseconds, so before yargs or anything else loads.
    const { runComplete } = await import('./cli/complete.ts');
    return runComplete(argv.slice(1), process.cwd(), process.env, (t) => process.stdout.write(t));
  }
  if (needsIndexEngine(argv)) preloadIndexEngine();
  const { systemIo } = await import('./io/io.ts');
  const io = systemIo(process.env, argv);
  // GIT_MEM_NOW pins the clock (tests, reproducible imports).
  const pinned = process.env.GIT_MEM_NOW ? new Date(process.env.GIT_MEM_NOW) : undefined;
  const now = pinned && !Number.isNaN(pinned.getTime()) ? () => pinned : () => new Date();
  if (argv.length === 1 && argv[0] === 'mcp') {
    // The MCP server answers initialize in tens of milliseconds: no yargs before it.
    const { runMcpServer } = await import('./mcp/server.ts');
    await runMcpServer(process.cwd(), process.env);
    return 0;
  }
  // Hooks skip yargs (they run on every prompt) and always exit 0: `hook <Event>`, `hook --agent <client> <Event>`.
  const agentHook = argv[0] === 'hook' && argv.length === 4 && argv[1] === '--agent' && !argv[3]!.startsWith('-');
  if ((argv[0] === 'hook' && argv.length === 2 && !argv[1]!.startsWith('-')) || agentHook) {
    const { runHook } = await import('./hooks/index.ts');
    await runHook(argv.at(-1), io, process.env, now, agentHook ? argv[2] : undefined);
    return 0;
  }
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      // Help is rendered from the command modules' declarations, without yargs or a context (cli/help.ts).
      const help = await (await import('./cli/help.ts')).fastHelp(argv);
      if (help !== undefined) {
        io.out(help);
        return 0;
      }
    }
    const [{ AppContext }, { runCli }] = await Promise.all([import('./context.ts'), import('./cli/index.ts')]);
    await runCli(argv, new AppContext(process.cwd(), process.env, io, now));
    return 0;
  } catch (err) {
    const { GitMemError } = await import('./core/errors.ts');
    if (err instanceof GitMemError) {
      io.err(`git-mem: ${err.message}${err.hint ? ` (${err.hint})` : ''}`);
      return err.exitCode;
    }
    io.err(`git-mem: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    io.err('git-mem: this is a bug; please report it with the command you ran');
    return exitCodeFor(err);
  }
}

// A reader that went away (`git mem export | head -1`): stop quietly, as git does (128 + SIGPIPE).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(141);
    throw err;
  });
}

process.exitCode = await main(process.argv.slice(2));
tracePhase('done');
