/**
 * A fast path for the YAML that memories use: `key: scalar` and `key: [a, b]`
 * lines. Anything outside that subset falls back to the full YAML parser, so
 * the result is always what YAML says; the fast path only skips its cost
 * (~0.5 ms a document), which matters on every hook and every reindex.
 */
import YAML from 'yaml';

const KEY_LINE = /^([A-Za-z_][\w-]*):(?: (.*))?$/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;

/**
 * Text YAML reads back as the same plain string: starts with a letter, `_` or `/`
 * (never an indicator or a digit), has no `: ` or ` #`, and is no reserved word.
 * In a flow list, `,[]{}` end the item, so they are excluded there too.
 */
function isPlainSafe(v: string, flow: boolean): boolean {
  if (!/^[A-Za-z_/]/.test(v) || v !== v.trim() || v.includes('\n') || RESERVED.test(v)) return false;
  if (v.includes(': ') || v.endsWith(':') || v.includes(' #') || v.includes('\t')) return false;
  return !flow || !/[,[\]{}]/.test(v);
}

type Scalar = string | number | boolean | null;
const FALLBACK = Symbol('fallback');

function readScalar(text: string, flow = false): Scalar | typeof FALLBACK {
  const v = text.trim();
  if (v === '' || v === '~' || v === 'null') return null;
  if (v === 'true' || v === 'false') return v === 'true';
  if (NUMBER.test(v)) return Number(v);
  if (TIMESTAMP.test(v)) return v;
  if (v.startsWith('"')) {
    if (!v.endsWith('"') || v.length < 2 || /\\[^"\\/bfnrtu]/.test(v)) return FALLBACK;
    try {
      return JSON.parse(v) as string;
    } catch {
      return FALLBACK;
    }
  }
  if (v.startsWith("'")) {
    const inner = v.slice(1, -1);
    if (!v.endsWith("'") || v.length < 2 || /'(?!')/.test(inner.replaceAll("''", ''))) return FALLBACK;
    return inner.replaceAll("''", "'");
  }
  return isPlainSafe(v, flow) ? v : FALLBACK;
}

function readValue(text: string): Scalar | Scalar[] | typeof FALLBACK {
  const v = text.trim();
  if (!v.startsWith('[')) return readScalar(v);
  if (!v.endsWith(']') || /["'[\]{}]/.test(v.slice(1, -1))) return FALLBACK;
  const inner = v.slice(1, -1).trim();
  if (!inner) return [];
  const items = inner.split(',').map((item) => readScalar(item, true));
  return items.includes(FALLBACK) ? FALLBACK : (items as Scalar[]);
}

/** Parses a front matter block: a mapping, null when it is not a mapping, or 'invalid' when it is not YAML. */
export function parseFrontMatter(lines: readonly string[]): Record<string, unknown> | 'invalid' | null {
  const out: Record<string, unknown> = {};
  for (const line of lines) {
    if (!line.trim()) continue;
    const m = KEY_LINE.exec(line);
    const value = m ? readValue(m[2] ?? '') : FALLBACK;
    if (value === FALLBACK || !m || m[1]! in out) return parseWithYaml(lines);
    out[m[1]!] = value;
  }
  return Object.keys(out).length ? out : parseWithYaml(lines);
}

function parseWithYaml(lines: readonly string[]): Record<string, unknown> | 'invalid' | null {
  try {
    const value: unknown = YAML.parse(lines.join('\n'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    return null;
  } catch {
    return 'invalid';
  }
}

function writeScalar(value: string | number, flow: boolean): string {
  if (typeof value === 'number') return String(value);
  if (TIMESTAMP.test(value) || isPlainSafe(value, flow)) return value;
  // A JSON string is a valid YAML double-quoted scalar.
  return JSON.stringify(value);
}

function isFlat(v: unknown): v is string | number | ReadonlyArray<string | number> {
  const scalar = (x: unknown) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x));
  return scalar(v) || (Array.isArray(v) && v.every(scalar));
}

/**
 * Serialises fields as YAML lines, ending in a newline: scalars and lists of
 * scalars in the compact form memories use, anything else (a nested mapping, a
 * boolean, null: another tool's fields, kept as they were) through the YAML library.
 */
export function writeFrontMatter(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      if (!isFlat(v)) return YAML.stringify({ [k]: v });
      if (Array.isArray(v)) return `${k}: [${v.map((x) => writeScalar(x, true)).join(', ')}]\n`;
      return `${k}: ${writeScalar(v as string | number, false)}\n`;
    })
    .join('');
}
