/** Hook events git-mem answers, in Claude Code's spelling, and the kebab-case spelling users may type. */
export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SubagentStart', 'PreCompact', 'Stop', 'SessionEnd'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export function normalizeEvent(name: string): HookEvent | null {
  const flat = name.replace(/[-_\s]/g, '').toLowerCase();
  return HOOK_EVENTS.find((e) => e.toLowerCase() === flat) ?? null;
}
