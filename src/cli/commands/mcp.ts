import type { AppContext } from '../../context.ts';
import { defineCommand } from '../command.ts';

export function mcpCommand(ctx: AppContext) {
  return defineCommand({
    command: 'mcp',
    describe: 'Serve recall, hydrate, capture, list, edit, resolve, forget and blame to an agent over MCP (stdio)',
    builder: (y) =>
      y
        .example('claude mcp add git-mem -- git mem mcp', 'Offer the tools to Claude Code')
        .epilogue('JSON-RPC 2.0 on stdin and stdout, one message per line (the Model Context Protocol stdio transport). Notices go to stderr. The embedding model is loaded only when a recall needs it.') as never,
    parse: () => ({}),
    run: async () => {
      const { runMcpServer } = await import('../../mcp/server.ts');
      await runMcpServer(ctx.cwd, ctx.env);
    },
    render: () => {},
  });
}
