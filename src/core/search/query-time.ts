/**
 * Time in a recall query: "yesterday", "last week", "in March", "since Monday", "3 days ago",
 * "recently" read as a window of creation times, which recall weighs up (services/search/recall.ts): a
 * memory created in the window ranks above the same match created outside it. Only phrases that
 * clearly ask about time are read: a month or a weekday needs a word before it that makes it a
 * time ("in March", "since Monday", "last Friday"); "the March release", "the Monday standup" or
 * "weekly" are words like any other. Pure: the clock is passed in; days are UTC days.
 */

export interface QueryTime {
  /** The window, as milliseconds since the epoch: from (inclusive) to (exclusive). */
  from: number;
  to: number;
  /** The phrase read, as written. */
  phrase: string;
  /** The query without the phrase (the words asking about time are not topic words). */
  rest: string;
}

const DAY = 86_400_000;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_SHORT = MONTHS.map((m) => m.slice(0, 3));
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, few: 3, couple: 2, several: 4 };
/** "Recently", "lately": the last two weeks. */
const RECENT_DAYS = 14;

const startOfDay = (t: number) => Math.floor(t / DAY) * DAY;
/** Monday 00:00 UTC of the week holding t. */
const startOfWeek = (t: number) => startOfDay(t) - ((new Date(t).getUTCDay() + 6) % 7) * DAY;
const monthStart = (year: number, month: number) => Date.UTC(year, month, 1);

function monthOf(word: string): number {
  const w = word.toLowerCase();
  const i = MONTHS.indexOf(w);
  return i >= 0 ? i : w.length === 3 || (w.length === 4 && w === 'sept') ? MONTH_SHORT.indexOf(w.slice(0, 3)) : -1;
}

function count(word: string): number {
  const w = word.toLowerCase();
  return /^\d+$/.test(w) ? Number(w) : (NUMBERS[w] ?? NaN);
}

function unitDays(unit: string): number {
  const u = unit.toLowerCase().replace(/s$/, '');
  return u === 'day' ? 1 : u === 'week' ? 7 : u === 'month' ? 30 : u === 'year' ? 365 : NaN;
}

/** The most recent start of `month` (0-11) that is not in the future, in `year` when given. */
function lastMonth(month: number, now: number, year?: number): { from: number; to: number } {
  const d = new Date(now);
  let y = year ?? d.getUTCFullYear();
  if (year === undefined && month > d.getUTCMonth()) y--;
  return { from: monthStart(y, month), to: monthStart(y, month + 1) };
}

/** The most recent `weekday` (0 Sunday) before today when `strict`, else today or before. */
function lastWeekday(weekday: number, now: number, strict: boolean): number {
  const today = startOfDay(now);
  let back = (new Date(now).getUTCDay() - weekday + 7) % 7;
  if (back === 0 && strict) back = 7;
  return today - back * DAY;
}

type Reader = (m: RegExpExecArray, now: number) => { from: number; to: number } | null;

const MONTH_RE = '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)';
const WEEKDAY_RE = '(sunday|monday|tuesday|wednesday|thursday|friday|saturday)';
const COUNT_RE = '(\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple|several)';

/**
 * The phrases read, most specific first. Each is matched on word boundaries, case aside; a month
 * is read only after in, during, since, after, before, until, last or early/late, a weekday only
 * after on, since, after, before, until or last.
 */
const READERS: Array<[RegExp, Reader]> = [
  [/\byesterday\b/i, (_m, now) => ({ from: startOfDay(now) - DAY, to: startOfDay(now) })],
  [/\b(?:earlier )?today\b|\bthis (?:morning|afternoon|evening)\b/i, (_m, now) => ({ from: startOfDay(now), to: startOfDay(now) + DAY })],
  [new RegExp(`\\b(?:in |over |during )?the (?:last|past) ${COUNT_RE}(?: of)? (days?|weeks?|months?|years?)\\b|\\b(?:in |over |during )?(?:the )?(?:last|past) ${COUNT_RE}(?: of)? (days?|weeks?|months?|years?)\\b`, 'i'), (m, now) => {
    const n = count(m[1] ?? m[3]!);
    const days = unitDays(m[2] ?? m[4]!);
    return Number.isFinite(n * days) ? { from: startOfDay(now) - n * days * DAY, to: now + 1 } : null;
  }],
  [new RegExp(`\\b${COUNT_RE}(?: of)? (days?|weeks?|months?|years?) ago\\b`, 'i'), (m, now) => {
    const n = count(m[1]!);
    const days = unitDays(m[2]!);
    if (!Number.isFinite(n * days)) return null;
    // Around that time: half the unit either side (a day ago: yesterday and the day before).
    const at = startOfDay(now) - n * days * DAY;
    return { from: at - Math.ceil(days / 2) * DAY, to: at + Math.ceil(days / 2) * DAY + DAY };
  }],
  [/\b(?:last|previous|past) (week|month|year)\b/i, (m, now) => {
    const unit = m[1]!.toLowerCase();
    const d = new Date(now);
    // From the start of the previous week, month or year until now: "last week" is said of both.
    if (unit === 'week') return { from: startOfWeek(now) - 7 * DAY, to: now + 1 };
    if (unit === 'month') return { from: monthStart(d.getUTCFullYear(), d.getUTCMonth() - 1), to: now + 1 };
    return { from: Date.UTC(d.getUTCFullYear() - 1, 0, 1), to: now + 1 };
  }],
  [/\bthis (week|month|year)\b/i, (m, now) => {
    const unit = m[1]!.toLowerCase();
    const d = new Date(now);
    const from = unit === 'week' ? startOfWeek(now) : unit === 'month' ? monthStart(d.getUTCFullYear(), d.getUTCMonth()) : Date.UTC(d.getUTCFullYear(), 0, 1);
    return { from, to: now + 1 };
  }],
  [/\b(since|after|before|until|on) (\d{4}-\d{2}-\d{2})\b/i, (m, now) => {
    const at = Date.parse(`${m[2]}T00:00:00Z`);
    if (Number.isNaN(at)) return null;
    const how = m[1]!.toLowerCase();
    if (how === 'on') return { from: at, to: at + DAY };
    return how === 'since' || how === 'after' ? { from: at, to: now + 1 } : { from: 0, to: at };
  }],
  [new RegExp(`\\b(since|after|before|until|in|during|last|early|late|earlier|later) (?:in )?${MONTH_RE}(?: (\\d{4}))?\\b`, 'i'), (m, now) => {
    // "may" is a month only written as one: "in May", not "in may".
    if (m[2]!.toLowerCase() === 'may' && m[2] !== 'May') return null;
    const month = monthOf(m[2]!);
    if (month < 0) return null;
    const year = m[3] ? Number(m[3]) : undefined;
    const span = lastMonth(month, now, year);
    const how = m[1]!.toLowerCase();
    if (how === 'since' || how === 'after') return { from: how === 'since' ? span.from : span.to, to: now + 1 };
    if (how === 'before' || how === 'until') return { from: 0, to: how === 'before' ? span.from : span.to };
    return span;
  }],
  [new RegExp(`\\b(since|after|before|until|on|last) ${WEEKDAY_RE}\\b`, 'i'), (m, now) => {
    const how = m[1]!.toLowerCase();
    const day = lastWeekday(WEEKDAYS.indexOf(m[2]!.toLowerCase()), now, how === 'last');
    if (how === 'since') return { from: day, to: now + 1 };
    if (how === 'after') return { from: day + DAY, to: now + 1 };
    if (how === 'before' || how === 'until') return { from: 0, to: how === 'before' ? day : day + DAY };
    return { from: day, to: day + DAY };
  }],
  [/\b(?:recently|lately|of late|the other day)\b/i, (_m, now) => ({ from: startOfDay(now) - RECENT_DAYS * DAY, to: now + 1 })],
];

/** The first time phrase of `text` (READERS' order), or null when it asks about no time. */
export function parseQueryTime(text: string, now: Date): QueryTime | null {
  const t = now.getTime();
  for (const [re, read] of READERS) {
    const m = re.exec(text);
    if (!m) continue;
    const span = read(m, t);
    if (!span || !(span.to > span.from)) continue;
    const rest = `${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}`.replace(/\s+/g, ' ').trim();
    return { ...span, phrase: m[0], rest };
  }
  return null;
}
