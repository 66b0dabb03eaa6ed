/**
 * An agent's narration of its own work, taken out of its messages before the
 * statement detector reads them: what it is about to do ("Now let me…",
 * "I'll…"), what it has just done ("I've updated…", "Added…", "X has been
 * created"), how things stand ("All 12 tests pass", "The server is now
 * running"), interjections ("Perfect!"), questions and offers to the person,
 * and headings and bold labels that only name what follows. Such words say how
 * the session went, not what the team should know, unless they give a reason,
 * a cause, a gotcha or a decision ("because", "instead of", "fails", "must"…),
 * and then they stay. Explicit markers and their blocks are never touched, nor
 * is anything that is not prose (code, tables, quotes: the detector skips
 * those itself). The phrases are English; text in other languages passes
 * through as written. Pure.
 */

/** Words that make a sentence more than narration: a reason, a cause, a gotcha, a constraint or a decision. */
const SUBSTANCE =
  /\b(?:because|since|so that|due to|caused by|(?:root )?cause[sd]?|reason|instead of|rather than|turns? out|turned out|otherwise|to (?:avoid|prevent)|fail(?:s|ed|ing|ure)?|break(?:s|ing)?|broke(?:n)?|crash(?:es|ed)?|never|must|requires?|required|decided|decision|chose|opted|went with|trade-?off|workaround|gotcha|caveat|note that|beware|unlike|(?:bugs?|issues?|problems?|culprit) (?:is|was|were|are)(?! (?:now |all |also )?(?:clear|fixed|resolved|gone|solved|addressed|handled)\b)|the fix (?:is|was)(?! (?:now )?(?:complete|done|applied|in place|working|ready)\b)|which (?:is why|caused)|found that|(?:learned|realized|discovered|noticed) that|ran into|it turns out)/i;

/** Weaker words of a constraint (a negation, a condition, "only"): they make a statement of a report, not of a plan ("Let me wait until it finishes"). */
const CONSTRAINT = /\b(?:until|unless|doesn't|does not|don't|do not|didn't|did not|can't|cannot|couldn't|won't|isn't|aren't|wasn't|weren't|only|needs to|to keep|careful|not)\b/i;

/** Interjections that stand alone as a sentence. */
const INTERJECTION =
  /^(?:perfect|excellent|great|good|done|fixed|nice|awesome|ok(?:ay)?|alright|all set|success|got it|understood|sure|absolutely|brilliant|fantastic|wonderful|amazing|ready|confirmed|yes|right|all good|good news|all done)\b[\s\w]{0,20}[!.]*$/i;

/** What the agent is about to do. */
const PLAN =
  /^(?:(?:now|next|first|then|finally|also|okay|ok|alright|great|good|perfect)[,!]?\s+)*(?:let me|let's|lets|i'll|i will|i'm going to|i am going to|i need to|i'm now|i am now|we'll|we will|we need to|i want to|time to|moving on|next up|next steps?)\b/i;

/** "Now …" opening a sentence: what the agent turns to next ("Next, the worker reads the queue" may explain, not narrate). */
const NOW = /^now\b(?:,|\s)/i;

/** "I'm checking…": what the agent is doing. */
const DOING = /^(?:(?:now\s+)?(?:i'm|i am|we're|we are)\s+(?:now\s+|also\s+|still\s+|just\s+)?\w+ing\b|(?:now\s+)?(?:checking|running|looking|adding|updating|creating|writing|testing|fixing|starting|reading|building|verifying|searching|installing|auditing|splitting|reverting|moving|cleaning|waiting)\b)/i;

/** A gerund opening a sentence ("Building the image on ARM needs --platform") is its subject, unless the sentence is short or says "now" or ends in ':'. */
function doing(s: string): boolean {
  if (!DOING.test(s)) return false;
  if (/^(?:now\s+)?(?:i'm|i am|we're|we are)\b/i.test(s)) return true;
  return /\bnow\b/i.test(s) || /(?::|\.\.\.|…)$/.test(s) || s.split(/\s+/).length <= 6;
}

/** Past-tense verbs that open a report of what was done. */
const DONE_VERB =
  '(?:updated|added|created|fixed|modified|implemented|changed|removed|deleted|written|wrote|refactored|verified|confirmed|completed|made|set up|installed|identified|run|ran|tested|moved|renamed|cleaned(?: up)?|committed|pushed|built|rebuilt|reviewed|checked|analy[sz]ed|applied|configured|enabled|disabled|integrated|extracted|converted|deployed|generated|wired|bumped|upgraded|restored|reverted|split|enhanced|improved|adjusted|resolved|corrected|addressed|documented|included|inserted|edited|rewritten|rewrote|finished|launched|started|restarted|saved|loaded|copied|merged|ensured|replaced|wrapped|placed|switched|migrated|introduced|exposed|marked|hooked up|kicked off|successfully)';

/** "I've updated…", "We have added…". */
const DONE_FIRST_PERSON = new RegExp(`^(?:(?:now|so|ok(?:ay)?|great|good|perfect|excellent|done)[,!]?\\s+)*(?:i've|i have|we've|we have|i|we)\\s+(?:\\w+ly\\s+|also\\s+|now\\s+|just\\s+)*${DONE_VERB}\\b`, 'i');

/** "Added X to Y" opening a sentence or an item. */
const DONE_ITEM = new RegExp(`^${DONE_VERB}\\b`, 'i');

/** "X has been updated", "X was successfully created". */
const DONE_PASSIVE = new RegExp(`\\b(?:has|have|had) been (?:\\w+ly\\s+)?${DONE_VERB}\\b|\\b(?:was|were) (?:\\w+ly\\s+)?(?:successfully|correctly|properly)\\b|\\bsuccessfully\\b`, 'i');

/** How things stand: "is now running", "all tests pass", "the build succeeded". */
const STATE =
  /\b(?:is|are|it's|it is|they're|everything's|everything is|should be|looks|seems|appears to be)\s+(?:now\s+|all\s+|nearly\s+|almost\s+|fully\s+|still\s+|finally\s+|successfully\s+)*(?:working|running|operational|ready|complete|completed|done|finished|fixed|live|in place|passing|building|configured|set up|installed|up and running|waiting|integrated|deployed|wired up|in progress|underway|on track)\b|\b(?:all\s+)?(?:\d+\s+)?(?:(?:unit|integration|e2e)\s+)?(?:tests?|checks?|specs?|suites?)\s+(?:\w+\s+){0,2}(?:pass(?:es|ed|ing)?|succeed(?:s|ed)?|are green|green)\b|\b(?:build|compil(?:e|ation)|lint|type-?check|tsc|deployment|installation|migration)\s+(?:now\s+)?(?:passes|passed|succeeds|succeeded|completed|works|is clean|is green|went through)\b|\b(?:no|zero)\s+(?:errors|warnings|failures|regressions)\b|^(?:this|it|that)\s+(?:will|may|might|should|could)\s+take\b|^you (?:now )?(?:have|can now)\b/i;

/** Words of a state that also describe things ("polling is good enough for small teams"): a status only with "now", "all", "fully"… or in a short sentence. */
const STATE_WORD = /\b(?:is|are|it's|it is|they're|everything's|everything is|should be|looks|seems)\s+(?:(?:now|all|fully|finally|successfully)\s+)+(?:good|correct|clean|healthy|available|online|functional|green)\b/i;
const SHORT_STATE = /\b(?:is|are|it's|it is|they're|everything's|everything is|looks|seems)\s+(?:good|correct|clean|healthy|available|online|functional|green)\b/i;
const SHORT_WORDS = 8;

/** A label of a few words, a colon, and what it labels. */
const LABELLED = /^(?:[^\s:]+\s+){0,4}[^\s:]+:\s+(\S.*)$/;

/** An offer or a word to the person. */
const OFFER = /^(?:let me know|feel free|if you(?:'d| would) like|if you want|want me to|shall i|should i|would you like|do you want|you can now|you're all set|happy to|hope this helps)\b/i;

/** "Step 2 done:", "Phase 1 complete". */
const STEP = /^(?:step|phase|task|part|stage|milestone|item)\s+[\w.]+\s*(?:is\s+)?(?:now\s+)?(?:done|complete|completed|finished)\b/i;

/** A summary's or a report's own label. */
const REPORT = /^(?:summary|in summary|to summari[sz]e|recap|here'?s (?:what|a summary|the summary|a recap|the recap|how)|here is (?:what|a summary|the summary)|(?:the )?(?:key |main )?(?:changes|updates|fixes|improvements|results|files?(?: (?:changed|created|modified))?|what (?:i|we) (?:did|changed|built|fixed))(?: made| include| are)?|(?:current )?status|progress|next steps?)\b/i;

/** A heading or a bold label that opens a report: what was done, how things stand, what comes next. */
const REPORT_HEADING =
  /^(?:summary|in summary|recap|overview of (?:changes|work)|(?:key |main |all )?(?:changes|updates|fixes|improvements|enhancements)(?: made| applied| done)?|what (?:i|we) (?:did|changed|built|fixed|added)|what'?s (?:done|new|changed|working|fixed|ready|in place)\b.*|(?:current |final |project )?status|progress|next steps?|results?|(?:files? )?(?:changed|created|modified|added)|verification|test(?:ing|s)?(?: results)?|completed(?: tasks| work)?|done|accomplishments|deliverables)\s*:?$/i;

/** Status emoji that open a line: a checklist of what is done or running. */
const STATUS_EMOJI = /^(?:✅|✓|✔️?|☑️?|🎉|🚀|✨|👍|💯|🟢)/u;

/** Whether a heading's or a bold label's text opens a report. */
function reportLabel(label: string): boolean {
  const text = plainSentence(label.replace(/^\s*[-*+•]\s+/, '')).replace(/[:：]\s*$/, '').trim();
  return REPORT_HEADING.test(text) || isNarration(text) || STATE.test(text);
}

/** Whether a sentence gives a reason, a cause, a gotcha, a constraint or a decision. */
export function hasSubstance(sentence: string): boolean {
  const s = plainSentence(sentence);
  return SUBSTANCE.test(s) || (CONSTRAINT.test(s) && !plans(s));
}

/** A plan this long spells out an approach (what goes where, in which order), not just the next step. */
const PLAN_WORDS = 30;

/** What the agent is about to do or doing now. */
function plans(s: string): boolean {
  return (PLAN.test(s) || NOW.test(s) || doing(s)) && s.split(/\s+/).length <= PLAN_WORDS;
}

/** Whether one sentence is narration (list decoration, emphasis and emoji do not count). */
export function isNarration(sentence: string): boolean {
  const s = plainSentence(sentence);
  if (!s) return true;
  if (INTERJECTION.test(s)) return true;
  // A question is asked of the person (or of itself): not something the team knows.
  if (s.endsWith('?')) return true;
  if (OFFER.test(s)) return true;
  if (SUBSTANCE.test(s)) return false;
  if (plans(s)) return true;
  if (CONSTRAINT.test(s)) return false;
  // "**DNS**: Fixed the resolver copy", "Current phase: Creating the base system": a short label before a report.
  const labelled = LABELLED.exec(s);
  if (labelled && isNarration(labelled[1]!)) return true;
  return STEP.test(s) || DONE_FIRST_PERSON.test(s) || DONE_ITEM.test(s) || DONE_PASSIVE.test(s) || STATE.test(s) || STATE_WORD.test(s) || (SHORT_STATE.test(s) && s.split(/\s+/).length <= SHORT_WORDS) || (s.endsWith(':') && REPORT.test(s));
}

/** A sentence without list decoration, emphasis or status emoji. */
function plainSentence(sentence: string): string {
  return sentence
    .trim()
    .replace(/^(?:[-*+•]|\d{1,3}[.)])\s+/, '')
    .replace(/\*\*|__/g, '')
    .replace(/^(?:\p{Extended_Pictographic}|\uFE0F|\u200D|\s)+/u, '')
    .trim();
}

/** Sentences of a line: a . ! or ? before a space and a capital, a digit, a quote or a tick ends one (so `sql.js` and `e.g. this` do not). */
function sentences(line: string): string[] {
  return line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}`"'(*\p{Extended_Pictographic}])/u);
}

/** Explicit markers and blocks (core/signals.ts): lines holding one are left as written. */
const MARKER = /\[(?:decision|d|learned|learning|l|blocker|b|progress|pattern|remember|capture)(?::[a-z0-9-]+)?\]|@memory:|\bTIL\b|\bremember this\b|\bfor future reference\b/i;
const BLOCK_OPEN = /^[ \t]*(?:▶|:::[ \t]*[a-z])/;
const BLOCK_CLOSE = /^[ \t]*(?:─{3,}|:::)[ \t]*$/;
const FENCE = /^\s*(?:```|~~~)/;
const HEADING = /^\s*#{1,6}\s+(.*)$/;
/** A line that is only a bold label ("**Changes:**", "**Status**"). */
const LABEL_LINE = /^\s*(?:[-*+•]\s+)?\*\*[^*]{1,80}\*\*:?\s*$/;
const ITEM = /^(\s*(?:[-*+•]|\d{1,3}[.)])\s+)(.*)$/;
/** Lines the detector never reads as prose: a table row, a quote. Left as written. */
const NOT_PROSE = /^\s*(?:\||>)/;

/** How many words a label may have and still only name what follows. */
const LABEL_WORDS = 8;

/** A heading that says something: a long one, or a label and what it labels ("Decision: keep the index local"). */
function saysSomething(heading: string): boolean {
  const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
  const labelled = /^[^:]{1,40}:\s+(.+)$/.exec(plainSentence(heading));
  return words(heading) > LABEL_WORDS || (labelled !== null && words(labelled[1]!) >= 3);
}

/** A line of a message as the first pass leaves it. */
interface Line {
  kind: 'blank' | 'verbatim' | 'prose' | 'removed';
  item: boolean;
  /** Its indentation or list decoration, and the sentences kept. */
  lead: string;
  kept: string[];
  /** The line's last sentence when it ends with ':' and is kept only if what it introduces is: whether it is narration. */
  leadIn?: { text: string; narration: boolean };
}

/**
 * An agent's message with its narration taken out: narrated sentences go, a
 * line left empty goes, a heading or a bold label line that only names what
 * follows goes. A line (a paragraph's line, a list item) with a sentence that
 * gives a reason is kept whole. A lead-in (a line's last sentence, ending with
 * ':') stays with what it introduces: it goes when all of that went, and a
 * narrated one ("Let me update the config:") goes unless prose follows it.
 * What remains keeps its lines, lists and paragraphs.
 */
export function withoutNarration(message: string): string {
  const lines = firstPass(message);
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (line.kind === 'blank' || line.kind === 'verbatim') return out.push(line.kept[0]!);
    const kept = [...line.kept];
    if (line.leadIn && keepsLeadIn(lines, i, line.leadIn.narration)) kept.push(line.leadIn.text);
    if (line.kind === 'removed' || !kept.length) {
      // A paragraph cut in two by a removed line would join its halves: a blank line keeps them apart.
      if (!line.item) out.push('');
      return;
    }
    out.push(line.lead + kept.join(' '));
  });
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** Whether the lead-in ending line i introduces something that stays (see withoutNarration). */
function keepsLeadIn(lines: readonly Line[], i: number, narration: boolean): boolean {
  let removed = false;
  for (let j = i + 1; j < lines.length; j++) {
    const next = lines[j]!;
    if (next.kind === 'blank') continue;
    if (next.kind === 'removed' || (next.kind === 'prose' && !next.kept.length && !next.leadIn)) {
      if (!next.item) return false;
      removed = true;
      continue;
    }
    // After items that went, a paragraph is not the list's: the lead-in's list went.
    if (next.kind === 'prose') return next.item || !removed;
    return !narration && !removed; // code, a table, a marker: the lead-in introduces that, as written
  }
  return !narration && !removed;
}

function firstPass(message: string): Line[] {
  const out: Line[] = [];
  const verbatim = (text: string): Line => ({ kind: text.trim() ? 'verbatim' : 'blank', item: false, lead: '', kept: [text] });
  const removed = (item: boolean): Line => ({ kind: 'removed', item, lead: '', kept: [] });
  let fence = false;
  let block = false;
  /** Under a heading or a label that opens a report ("## Summary", "**Next steps:**"): a line stays only if it gives a reason. */
  let report = false;
  let reportRead = false;
  let afterBlank = false;
  for (const line of message.split('\n')) {
    // A report is the list or the paragraph under its label: a paragraph after a blank line is something else.
    if (report && reportRead && afterBlank && line.trim() && !ITEM.test(line) && !/^\s{2,}/.test(line)) report = false;
    afterBlank = !line.trim();
    if (FENCE.test(line)) {
      fence = !fence;
      out.push(verbatim(line));
      continue;
    }
    if (fence) {
      out.push(verbatim(line));
      continue;
    }
    if (block) {
      out.push(verbatim(line));
      if (BLOCK_CLOSE.test(line)) block = false;
      continue;
    }
    if (BLOCK_OPEN.test(line)) {
      block = true;
      out.push(verbatim(line));
      continue;
    }
    if (!line.trim() || MARKER.test(line) || NOT_PROSE.test(line)) {
      out.push(verbatim(line));
      continue;
    }
    const heading = HEADING.exec(line);
    const label = heading ? heading[1]! : LABEL_LINE.test(line) ? line : '';
    if (label) {
      report = reportLabel(label);
      reportRead = false;
    }
    if (heading) {
      // A heading names a section; a long one that says something is read as a paragraph of its own.
      const text = heading[1]!.trim();
      if (saysSomething(text) && !isNarration(text)) out.push(verbatim(''), { kind: 'prose', item: false, lead: '', kept: [text] }, verbatim(''));
      else out.push(removed(false));
      continue;
    }
    if (LABEL_LINE.test(line)) {
      out.push(removed(false));
      continue;
    }
    const item = ITEM.exec(line);
    const lead = item ? item[1]! : (/^\s*/.exec(line)?.[0] ?? '');
    const body = item ? item[2]! : line.trim();
    // A status checklist item is narration unless it gives a reason.
    if (STATUS_EMOJI.test(body.replace(/^\*\*/, '')) && !hasSubstance(body)) {
      out.push(removed(Boolean(item)));
      continue;
    }
    reportRead = true;
    const all = sentences(body);
    // A line that gives a reason is kept whole: its narration ("I've fixed the bug.") says what the reason is about.
    if (all.some(hasSubstance)) {
      out.push({ kind: 'prose', item: Boolean(item), lead, kept: all });
      continue;
    }
    if (report) {
      out.push(removed(Boolean(item)));
      continue;
    }
    const last = all[all.length - 1]!;
    const leadIn = last.trimEnd().endsWith(':') ? { text: last, narration: isNarration(last) } : undefined;
    const kept = (leadIn ? all.slice(0, -1) : all).filter((s) => !isNarration(s));
    out.push(kept.length || leadIn ? { kind: 'prose', item: Boolean(item), lead, kept, leadIn } : removed(Boolean(item)));
  }
  return out;
}

/**
 * Messages with what an earlier one already said taken out: a paragraph the
 * agent repeats (a recap of the previous turn's findings) is read once.
 */
export function saidOnce(messages: readonly string[]): string[] {
  const seen = new Set<string>();
  return messages.map((m) =>
    m
      .split(/\n{2,}/)
      .filter((p) => {
        const key = p.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
        // Short ones ("Done.") are not a repeat worth the name; one with a fence line keeps the fences paired.
        if (key.split(' ').length < 4 || /^\s*(?:```|~~~)/m.test(p)) return true;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .join('\n\n'),
  );
}
