/**
 * A command line read from its command's declaration (cli/spec.ts) without
 * yargs, for the lines that need none of yargs' less common rules: loading
 * yargs and parsing with it costs a compiled command about 12 ms (of 45 for
 * `git mem list`). Whatever this does not read plainly (an option it does not
 * know, combined or attached short flags, a value that starts with `-` or is
 * empty, a value outside its choices, a number that is not one, an option
 * given twice, a missing positional, one too many) gives undefined, and yargs
 * parses the line as before, its errors included. The arguments are the ones
 * yargs would hand the command (each option under its name, its aliases and
 * their camelCase forms, defaults applied, a count at 0, an optional variadic
 * positional as []), and test/unit/cli-fast-args.test.ts holds the options
 * each command's parse step makes of them to yargs' on every line of the argv
 * table and on generated lines. Pure.
 */
import type { CommandSpec, OptionSpec } from './spec.ts';

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** yargs' arguments for `argv` (its first word names `command`), or undefined when yargs must read it. */
export function argsBySpec(argv: readonly string[], command: CommandSpec, globals: readonly OptionSpec[], scriptName: string): Record<string, unknown> | undefined {
  const options = [...command.options, ...globals];
  const byFlag = new Map<string, OptionSpec>();
  for (const o of options) for (const n of [o.name, ...o.aliases]) byFlag.set(n.length === 1 ? `-${n}` : `--${n}`, o);
  const values = new Map<OptionSpec, unknown>();
  const words: string[] = [];
  const plain = (value: string | undefined): value is string => value !== undefined && value !== '' && !value.startsWith('-');

  for (let i = 1; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      // After an array option, yargs (given the words after `--` as marked values: cli/index.ts) takes them into it.
      if ([...values.keys()].some((o) => o.array)) return undefined;
      words.push(...argv.slice(i + 1));
      break;
    }
    if (token === '-') return undefined; // stdin: yargs' reading of it, with cli/index.ts's marks
    if (!token.startsWith('-')) {
      words.push(token);
      continue;
    }
    let flag = token;
    let inline: string | undefined;
    let negated = false;
    if (token.startsWith('--')) {
      const eq = token.indexOf('=');
      if (eq >= 0) [flag, inline] = [token.slice(0, eq), token.slice(eq + 1)];
      if (!byFlag.has(flag) && flag.startsWith('--no-')) [flag, negated] = [`--${flag.slice(5)}`, true];
    } else if (token.length !== 2) return undefined; // -abc, -n5, -5: yargs' rules
    const o = byFlag.get(flag);
    if (!o || (negated && (o.type !== 'boolean' || inline !== undefined))) return undefined;
    if (o.type === 'count') {
      if (inline !== undefined) return undefined;
      values.set(o, ((values.get(o) as number | undefined) ?? 0) + 1);
      continue;
    }
    if (values.has(o)) return undefined; // given twice: yargs makes an array of it, or an array option's rules
    if (o.type === 'boolean') {
      const next = argv[i + 1];
      if (inline !== undefined || next === 'true' || next === 'false') return undefined;
      values.set(o, !negated);
      continue;
    }
    const first = inline ?? argv[++i];
    if (!plain(first)) return undefined;
    const given = [first];
    // An array option takes the words after it up to the next option, as yargs does.
    if (o.array && inline === undefined) while (i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) given.push(argv[++i]!);
    const typed: unknown[] = [];
    for (const value of given) {
      if (o.choices && !o.choices.includes(value)) return undefined;
      if (o.type === 'number') {
        const n = Number(value);
        if (!Number.isFinite(n)) return undefined;
        typed.push(n);
      } else typed.push(value);
    }
    values.set(o, o.array ? typed : typed[0]);
  }

  const args: Record<string, unknown> = { _: [argv[0]], $0: scriptName };
  const put = (names: readonly string[], value: unknown) => {
    for (const n of names) {
      args[n] = value;
      args[camel(n)] = value;
    }
  };
  for (const o of options) {
    const value = values.has(o) ? values.get(o) : o.type === 'count' ? 0 : o.default;
    if (o.required && value === undefined) return undefined;
    if (value !== undefined) put([o.name, ...o.aliases], value);
  }
  let w = 0;
  for (const p of command.positionals) {
    const taken = p.variadic ? words.slice(w) : words.slice(w, w + 1);
    w += taken.length;
    if (p.required && taken.length === 0) return undefined;
    if (p.choices && taken.some((t) => !p.choices!.includes(t))) return undefined;
    if (p.variadic) put([p.name], taken);
    else if (taken.length) put([p.name], taken[0]);
  }
  return w === words.length ? args : undefined; // a word too many: yargs' "Unknown argument"
}
