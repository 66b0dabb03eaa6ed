/**
 * `git mem --help` and `git mem <command> --help` without loading yargs:
 * rendered from the command modules' own declarations (cli/spec.ts), in a
 * few milliseconds. yargs still parses and validates every real run.
 */
import type { CliSpec, CommandSpec, OptionSpec } from './spec.ts';

/** `--message <value>`, `-m`, `--[no-]fetch`: how an option is written in help and in the man page. */
export function optionFlags(o: OptionSpec): { short: string[]; long: string } {
  const short = o.aliases.filter((a) => a.length === 1).map((a) => `-${a}`);
  const longAliases = o.aliases.filter((a) => a.length > 1).map((a) => `--${a}`);
  const negatable = isNegatable(o);
  const long = [negatable ? `--[no-]${o.name}` : `--${o.name}`, ...longAliases].join(', ');
  return { short, long: o.type === 'boolean' || o.type === 'count' ? long : `${long} ${valuePlaceholder(o)}` };
}

/** What an option's value is called in help and the man page. */
const PLACEHOLDERS: Record<string, string> = { since: 'date', until: 'date', message: 'text', summary: 'text', 'relates-to': 'id', file: 'file' };

export function valuePlaceholder(o: OptionSpec): string {
  if (o.choices && o.choices.join('|').length <= 30) return `<${o.choices.join('|')}>`;
  return `<${o.type === 'number' ? 'n' : (PLACEHOLDERS[o.name] ?? o.name)}>`;
}

/** A boolean users turn off with `--no-<name>`: one that defaults to true, or whose description says so. */
export function isNegatable(o: OptionSpec): boolean {
  return o.type === 'boolean' && (o.default === true || o.describe.includes(`--no-${o.name}`));
}

/** Extra facts for an option's description: default, choices (when not in the placeholder), repeatable. */
export function optionNotes(o: OptionSpec): string[] {
  const notes: string[] = [];
  if (o.choices && o.choices.join('|').length > 30) notes.push(`one of: ${o.choices.join(', ')}`);
  if (o.array && !/repeatable/i.test(o.describe)) notes.push('repeatable');
  if (o.default !== undefined && o.default !== false && !(o.type === 'boolean' && o.default === true)) notes.push(`default: ${String(o.default)}`);
  return notes;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

/** Two columns: terms on the left, wrapped descriptions on the right. */
function table(rows: Array<[string, string]>, width: number): string[] {
  const left = Math.min(Math.max(...rows.map(([t]) => t.length)), 28);
  const right = Math.max(30, width - left - 4);
  const out: string[] = [];
  for (const [term, text] of rows) {
    const lines = wrap(text, right);
    if (term.length > left) {
      out.push(`  ${term}`);
      for (const l of lines) out.push(`  ${' '.repeat(left)}  ${l}`);
    } else {
      out.push(`  ${term.padEnd(left)}  ${lines[0]}`);
      for (const l of lines.slice(1)) out.push(`  ${' '.repeat(left)}  ${l}`);
    }
  }
  return out;
}

const HELP: OptionSpec = { name: 'help', aliases: ['h'], type: 'boolean', array: false, describe: 'Show help', required: false, hidden: false };
const VERSION: OptionSpec = { name: 'version', aliases: ['v'], type: 'boolean', array: false, describe: 'Show the version', required: false, hidden: false };

function optionRows(options: OptionSpec[]): Array<[string, string]> {
  return options
    .filter((o) => !o.hidden)
    .map((o) => {
      const { short, long } = optionFlags(o);
      const notes = optionNotes(o);
      return [`${short.length ? `${short.join(', ')}, ` : '    '}${long}`, `${o.describe}${notes.length ? ` (${notes.join('; ')})` : ''}`];
    });
}

export function rootHelp(spec: CliSpec, width: number): string {
  const lines = [`${spec.scriptName} <command> [options]`, '', ...wrap(spec.describe, width), '', 'Commands:'];
  lines.push(...table(spec.commands.filter((c) => !c.hidden).map((c) => [`${c.usage}${c.aliases.length ? ` (${c.aliases.join(', ')})` : ''}`, c.describe]), width));
  lines.push('', 'Options:', ...table(optionRows([...spec.globalOptions, HELP, VERSION]), width));
  lines.push('', ...wrap(`${spec.epilogue} Run ${spec.scriptName} <command> --help for a command's options; man git-mem (or git mem --help) for the manual.`, width));
  return lines.join('\n');
}

export function commandHelp(spec: CliSpec, command: CommandSpec, width: number): string {
  const lines = [`${spec.scriptName} ${command.usage}`, '', ...wrap(command.describe, width)];
  if (command.aliases.length) lines.push('', `Alias: ${command.aliases.map((a) => `${spec.scriptName} ${a}`).join(', ')}`);
  if (command.positionals.length) {
    lines.push('', 'Arguments:');
    lines.push(...table(command.positionals.map((p) => [p.variadic ? `${p.name}...` : p.name, `${p.describe}${p.required ? '' : ' (optional)'}`]), width));
  }
  lines.push('', 'Options:', ...table(optionRows([...command.options, ...spec.globalOptions, HELP]), width));
  if (command.examples.length) {
    lines.push('', 'Examples:');
    for (const e of command.examples) lines.push(`  ${e.command}`, ...(e.describe ? wrap(e.describe, width - 4).map((l) => `    ${l}`) : []));
  }
  if (command.epilogue) lines.push('', ...wrap(command.epilogue, width));
  return lines.join('\n');
}

/**
 * When argv asks for help (`--help`/`-h` before any `--`), the command it asks
 * about, or null for the root help (no command, or a word that names none, as
 * yargs does); undefined when this is not a help request.
 */
export function helpTarget(argv: readonly string[], spec: CliSpec): CommandSpec | null | undefined {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  if (!args.includes('--help') && !args.includes('-h')) return undefined;
  const word = args.find((a) => !a.startsWith('-'));
  return spec.commands.find((c) => c.name === word || c.aliases.includes(word ?? '')) ?? null;
}

/** The help text argv asks for, rendered from the registry; undefined when argv does not ask for help. */
export async function fastHelp(argv: readonly string[]): Promise<string | undefined> {
  if (!argv.includes('--help') && !argv.includes('-h')) return undefined;
  const { buildCliSpec } = await import('./registry.ts');
  const spec = buildCliSpec();
  const target = helpTarget(argv, spec);
  if (target === undefined) return undefined;
  const width = Math.min(100, process.stdout.columns || 100);
  return target === null ? rootHelp(spec, width) : commandHelp(spec, target, width);
}
