/** The only shapes a hook prints: documented fields of Claude Code's hook output. */
export interface HookReply {
  additionalContext?: string;
  systemMessage?: string;
}

export function renderReply(event: string, reply: HookReply | null): string | null {
  if (!reply || (!reply.additionalContext && !reply.systemMessage)) return null;
  const out: Record<string, unknown> = {};
  if (reply.systemMessage) out.systemMessage = reply.systemMessage;
  if (reply.additionalContext) out.hookSpecificOutput = { hookEventName: event, additionalContext: reply.additionalContext };
  return JSON.stringify(out);
}
