// Where Claude Code would have run Stop and PreCompact in a transcript, decided from the JSONL alone
// (not by git-mem's reader), shared by transcripts.bench.mjs and statements.bench.ts.

function parse(line) {
  try {
    const e = JSON.parse(line);
    return e && typeof e === 'object' ? e : null;
  } catch {
    return null;
  }
}

const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.filter((b) => b?.type === 'text').map((b) => b.text).join('\n\n') : '');

/** Where hooks fire in a transcript: Stop before each turn-ending line index and at the end; PreCompact before each compaction summary and at the end. */
export function hookPoints(lines) {
  const stops = [];
  const compacts = [];
  const lastMessage = []; // per line index: the main agent's last message text before it
  let last = '';
  let lastId = '';
  let assistantSince = false;
  lines.forEach((line, i) => {
    lastMessage[i] = last;
    const e = parse(line);
    if (!e || e.isSidechain === true) return;
    if (e.type === 'assistant') {
      const t = textOf(e.message?.content);
      if (t) {
        const id = e.message?.id ?? e.uuid;
        last = id === lastId ? `${last}\n\n${t}` : t;
        lastId = id;
      }
      assistantSince = true;
      return;
    }
    if (e.type !== 'user' || e.isMeta === true || e.toolUseResult !== undefined) return;
    const content = e.message?.content;
    if (Array.isArray(content) && content.some((b) => b?.type === 'tool_result')) return;
    const t = textOf(content).trimStart();
    if (/^<(?:local-command-stdout|bash-stdout|bash-stderr|bash-input)>/.test(t) || t.startsWith('Caveat:')) return;
    const summary = e.isCompactSummary === true || t.startsWith('This session is being continued from a previous conversation');
    if (summary && i > 0) compacts.push(i);
    if (assistantSince) stops.push(i);
    assistantSince = false;
  });
  lastMessage[lines.length] = last;
  if (assistantSince) stops.push(lines.length);
  compacts.push(lines.length);
  return { stops, compacts, lastMessage };
}
