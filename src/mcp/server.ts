/** `git mem mcp`: the MCP server on stdin and stdout, one JSON-RPC message per line, answered in order. */
import { VERSION } from '../version.ts';
import { handleLine } from './protocol.ts';
import { memoryTools } from './tools.ts';

const INSTRUCTIONS =
  "git-mem is this repository's memory, kept in git notes: decisions, learnings, blockers and progress from the team and earlier sessions. " +
  'Recall before changing code you do not know; capture decisions and lessons as you make them.';

export function runMcpServer(cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const tools = memoryTools(cwd, env);
  const info = { name: 'git-mem', version: VERSION, instructions: INSTRUCTIONS };
  return new Promise((resolve) => {
    let buffered = '';
    // One message at a time, in order: a capture is written before the recall that follows it runs.
    let queue = Promise.resolve();
    const answer = (line: string) => {
      queue = queue.then(async () => {
        const reply = await handleLine(line, tools, info).catch((err: unknown) => ({ jsonrpc: '2.0' as const, id: null, error: { code: -32603, message: String(err) } }));
        if (reply) process.stdout.write(`${JSON.stringify(reply)}\n`);
      });
    };
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        answer(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
      }
    });
    process.stdin.on('end', () => {
      if (buffered.trim()) answer(buffered);
      void queue.then(resolve);
    });
  });
}
