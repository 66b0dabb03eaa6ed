/**
 * The OpenCode plugin `git mem init --opencode` writes to .opencode/plugins/git-mem.js. OpenCode
 * loads it at start; it shells out to `git-mem hook --agent opencode <event>` (agents/opencode/hooks.ts
 * reads what it sends):
 * - the session's first system prompt (`experimental.chat.system.transform`): SessionStart, once
 *   per session, its context kept in the system prompt of every later request;
 * - a prompt (`chat.message`): UserPromptSubmit, its context a synthetic part of the message;
 * - after `read`, `edit` or `write` (`tool.execute.after`): PostToolUse, appended to the tool's output;
 * - the session idle (`event` session.idle): Stop with the turn's assistant messages (collected from
 *   `message.part.updated` events), run detached so that OpenCode never waits for a capture.
 * It must never block or break OpenCode: every call has a timeout, and any failure is one line on
 * stderr and no context.
 *
 * This module only holds the plugin's text; git-mem itself spawns nothing here.
 */

/** How long the plugin waits for a hook before going on without its context. */
export const PLUGIN_TIMEOUT_MS = 10_000;

/** The plugin's first line: how git-mem knows the file as its own. */
export const PLUGIN_MARK = '// git-mem plugin for OpenCode: written by `git mem init --opencode`';

/** The plugin's source, running `command` (the git-mem executable: `git-mem`, or an absolute path). */
export function opencodePlugin(command: string): string {
  return `${PLUGIN_MARK}; \`git mem init --opencode --remove\` takes it out.
// It calls git-mem's hooks and never blocks or breaks a session: a failure is one line on stderr.
import { spawn } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';

const GIT_MEM = ${JSON.stringify(command)};
const TIMEOUT_MS = ${PLUGIN_TIMEOUT_MS};

function warn(what) {
  try {
    process.stderr.write(\`git-mem plugin: \${String(what).split('\\n')[0]}\\n\`);
  } catch {}
}

/** Runs one hook; resolves to its reply ({additionalContext, systemMessage}) or null. Never rejects. */
function hook(event, input, cwd) {
  return new Promise((resolve) => {
    let out = '';
    let done = false;
    let timer;
    const finish = (value) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(value);
    };
    let child;
    try {
      child = spawn(GIT_MEM, ['hook', '--agent', 'opencode', event], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (err) {
      warn(\`\${event}: \${err?.message ?? err}\`);
      return finish(null);
    }
    timer = setTimeout(() => {
      warn(\`\${event} took longer than \${TIMEOUT_MS} ms; going on without it\`);
      try {
        child.kill('SIGKILL');
      } catch {}
      finish(null);
    }, TIMEOUT_MS);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => warn(d));
    child.on('error', (err) => {
      warn(\`\${event}: \${err?.message ?? err}\`);
      finish(null);
    });
    child.on('close', () => {
      try {
        finish(out.trim() ? JSON.parse(out) : null);
      } catch {
        warn(\`\${event}: not a JSON reply\`);
        finish(null);
      }
    });
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify({ cwd, ...input }));
  });
}

/** Runs a hook that answers nothing OpenCode waits for, detached: it finishes even when OpenCode exits first. */
function hookDetached(event, input, cwd) {
  try {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-opencode-')), 'input.json');
    fs.writeFileSync(file, JSON.stringify({ cwd, ...input }));
    const fd = fs.openSync(file, 'r');
    const child = spawn(GIT_MEM, ['hook', '--agent', 'opencode', event], { cwd, stdio: [fd, 'ignore', 'ignore'], detached: true });
    child.on('error', (err) => warn(\`\${event}: \${err?.message ?? err}\`));
    child.unref();
    fs.closeSync(fd);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  } catch (err) {
    warn(\`\${event}: \${err?.message ?? err}\`);
  }
}

export const GitMem = async ({ directory, worktree }) => {
  const cwd = directory || worktree || process.cwd();
  /** SessionStart's reply per session (a promise, so parallel requests share one run). */
  const started = new Map();
  /** Per session: the ids of the user's messages, and the text of each part of the turn's other messages. */
  const users = new Set();
  const turns = new Map();
  const turnOf = (sessionID) => {
    if (!turns.has(sessionID)) turns.set(sessionID, new Map());
    return turns.get(sessionID);
  };
  return {
    'experimental.chat.system.transform': async (input, output) => {
      try {
        const sessionID = input?.sessionID;
        if (!sessionID) return;
        if (!started.has(sessionID)) started.set(sessionID, hook('SessionStart', { session_id: sessionID, source: 'startup' }, cwd));
        const reply = await started.get(sessionID);
        if (reply?.additionalContext && Array.isArray(output?.system)) output.system.push(reply.additionalContext);
      } catch (err) {
        warn(\`SessionStart: \${err?.message ?? err}\`);
      }
    },
    'chat.message': async (input, output) => {
      try {
        const sessionID = input?.sessionID ?? output?.message?.sessionID;
        if (!sessionID) return;
        if (output?.message?.id) users.add(output.message.id);
        turns.set(sessionID, new Map());
        const parts = Array.isArray(output?.parts) ? output.parts : [];
        const prompt = parts.filter((p) => p?.type === 'text' && !p.synthetic && typeof p.text === 'string').map((p) => p.text).join('\\n');
        if (!prompt) return;
        const reply = await hook('UserPromptSubmit', { session_id: sessionID, prompt, message_id: output?.message?.id ?? '' }, cwd);
        const first = parts[0];
        // A text part of the same message, after the user's (its id sorts after theirs), which OpenCode shows no one.
        if (reply?.additionalContext && first) parts.push({ id: \`\${first.id}-git-mem\`, sessionID: first.sessionID ?? sessionID, messageID: first.messageID ?? output.message.id, type: 'text', text: reply.additionalContext, synthetic: true });
      } catch (err) {
        warn(\`UserPromptSubmit: \${err?.message ?? err}\`);
      }
    },
    'tool.execute.after': async (input, output) => {
      try {
        const tool = input?.tool;
        const file = input?.args?.filePath;
        if (!['read', 'edit', 'write'].includes(tool) || typeof file !== 'string') return;
        const reply = await hook('PostToolUse', { session_id: input.sessionID, tool, file_path: file, call_id: input.callID ?? '' }, cwd);
        if (reply?.additionalContext && output && typeof output.output === 'string') output.output += \`\\n\\n\${reply.additionalContext}\`;
      } catch (err) {
        warn(\`PostToolUse: \${err?.message ?? err}\`);
      }
    },
    event: async ({ event }) => {
      try {
        const props = event?.properties ?? {};
        if (event?.type === 'message.updated' && props.info?.role === 'user') users.add(props.info.id);
        if (event?.type === 'message.part.updated') {
          const part = props.part;
          if (part?.type === 'text' && !part.synthetic && part.sessionID && !users.has(part.messageID)) turnOf(part.sessionID).set(part.id, part.text ?? '');
        }
        if (event?.type === 'session.idle' && props.sessionID) {
          const messages = [...turnOf(props.sessionID).values()].filter((t) => t.trim());
          turns.set(props.sessionID, new Map());
          if (messages.length) hookDetached('Stop', { session_id: props.sessionID, messages }, cwd);
        }
      } catch (err) {
        warn(\`event: \${err?.message ?? err}\`);
      }
    },
  };
};
`;
}
