/** Where Stop (before each line index in `stops`, and at the end) and PreCompact (`compacts`) run; `lastMessage[i]` is the main agent's last message before line i. */
export function hookPoints(lines: string[]): { stops: number[]; compacts: number[]; lastMessage: string[] };
