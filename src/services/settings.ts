/**
 * The one place that reads configuration: git config `mem.*` (repository or
 * global), overridden by `GIT_MEM_*` environment variables. One `git var -l`
 * gives the config and the identities together.
 */
import { type NamespaceInfo, resolveNamespaces } from '../core/namespaces.ts';
import path from 'node:path';
import { DEFAULT_MODEL_URL } from '../stores/embed/model-files.ts';
import type { Git } from '../stores/git/git.ts';
import { configAndIdentities } from '../stores/git/config.ts';
import type { PagerConfig } from '../io/pager.ts';
import { DEFAULT_TRUST, parseTrust, type TrustRule } from '../core/trust.ts';

export interface Settings {
  namespaces: NamespaceInfo[];
  invalidNamespaces: string[];
  /** For notes commits: `Name <email> <epoch> <tz>`. */
  committerIdent: string;
  /** For the memory's `author` field: `Name <email>`. */
  author: string;
  /** mem.autoCapture: hooks capture high-confidence statements (default true). */
  autoCapture: boolean;
  /** mem.hooks.pullOnStart: SessionStart pulls first, bounded in time (default false). */
  pullOnStart: boolean;
  /** mem.hooks.relevanceFloor: injected recall keeps a hit only at this share of the best score or above. */
  relevanceFloor: number;
  /** mem.hooks.pushOnEnd: SessionEnd pushes in a detached process (default false). */
  pushOnEnd: boolean;
  /** mem.secrets: what a capture does with a detected secret: redact (default), block or warn. */
  secrets: SecretsMode;
  /** mem.secrets.allow (repeatable): SHA-256 digests of values that are not secrets. */
  secretsAllow: string[];
  /** mem.recall.mode: how recall searches when not told (default hybrid; lexical never looks for a model). */
  recallMode: RecallMode;
  /** mem.recall.queryEmbedding: how semantic search embeds a query: the static table distilled from the model (default), or the model itself. */
  queryEmbedding: QueryEmbedding;
  /** mem.hooks.semantic: the UserPromptSubmit recall adds the static query's semantic ranking when the table and vectors are there (default true). */
  hooksSemantic: boolean;
  /** mem.modelPath: a local copy of the embedding model, and where the setting came from. */
  modelPath?: { dir: string; source: 'GIT_MEM_MODEL_PATH' | 'mem.modelPath' };
  /** mem.modelDownload: fetch the model on first semantic use (default true). */
  modelDownload: boolean;
  /** mem.modelUrl: where the model is fetched from. */
  modelUrl: string;
  /** mem.lifecycle.connect: lexical similarity (0-1) at or above which a new memory is linked to an existing one. */
  connectThreshold: number;
  /** mem.lifecycle.connectCosine: the same, as cosine similarity of embeddings, when the model is at hand. */
  connectCosine: number;
  /** mem.lifecycle.protect: namespaces gc never ages (default decisions). */
  protectNamespaces: string[];
  /** mem.lifecycle.timeout: seconds a --with command of consolidate or gc may run. */
  lifecycleTimeoutMs: number;
  /** mem.capture.with: a command (run by `sh -c`) that judges the turn's capture candidates at Stop; '' when none (the default). */
  captureWith: string;
  /** mem.capture.timeout: how long the judge may take, in ms. */
  captureTimeoutMs: number;
  /** core.pager and pager.mem: git's own settings, which `git mem` honours as git does. */
  pager: PagerConfig;
  /** mem.trust: which revisions the hooks and MCP inject without review (core/trust.ts). */
  trust: TrustRule[];
  /** mem.trust could not be read: the problem (then the default holds). */
  trustProblem?: string;
  /** mem.sign, else git's commit.gpgSign: sign the notes commits git-mem writes. */
  sign: boolean;
}

/** The default of mem.hooks.relevanceFloor: chosen on the tuning half of test/fixtures/ranking.json, checked on the other (npm run bench:ranking). */
export const RELEVANCE_FLOOR = 0.7;

/** The default of mem.lifecycle.connect: see docs/lifecycle.md for how it was chosen. */
export const CONNECT_THRESHOLD = 0.4;

/** The default of mem.capture.timeout, in seconds: a judge answers well inside the Stop hook's 30 s, or not at all. */
export const CAPTURE_TIMEOUT = 5;

export const RECALL_MODES = ['hybrid', 'lexical', 'semantic'] as const;
export type RecallMode = (typeof RECALL_MODES)[number];
export const QUERY_EMBEDDINGS = ['static', 'model'] as const;
export type QueryEmbedding = (typeof QUERY_EMBEDDINGS)[number];

export const SECRETS_MODES = ['redact', 'block', 'warn'] as const;
export type SecretsMode = (typeof SECRETS_MODES)[number];

/** Where a setting's effective value came from. */
export type SettingSource = 'default' | 'git config' | 'environment';

/**
 * One setting: its git config key (as documented; git matches the section and
 * the last part case-insensitively), the environment variable that overrides
 * it, its default, and how its text is read. `git mem config`, `git mem
 * doctor`, the man page and loadSettings() all read this one table.
 */
export interface SettingDefinition<T> {
  key: string;
  env?: string;
  /** How the value is written: for the docs and `git mem config`. */
  kind: 'boolean' | 'list' | 'choice' | 'text' | 'number';
  choices?: readonly string[];
  /** Several values (`git config --add`); the environment variable takes a comma- or space-separated list. */
  multi: boolean;
  /** The default as shown to users. */
  defaultText: string;
  describe: string;
  /** The effective value from the values found (config: all of them, in order; environment: one). Never throws. */
  parse(values: readonly string[]): { value: T; problem?: string };
}

function splitList(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
}

function boolSetting(key: string, env: string, fallback: boolean, describe: string): SettingDefinition<boolean> {
  return {
    key,
    env,
    kind: 'boolean',
    multi: false,
    defaultText: String(fallback),
    describe,
    parse: (values) => {
      const raw = values.at(-1);
      if (raw === undefined) return { value: fallback };
      const v = raw.trim().toLowerCase();
      if (['true', 'yes', 'on', '1', ''].includes(v)) return { value: true };
      if (['false', 'no', 'off', '0'].includes(v)) return { value: false };
      return { value: fallback, problem: `'${raw}' is not a boolean; using ${fallback}` };
    },
  };
}

function choiceSetting<C extends string>(key: string, env: string, choices: readonly C[], fallback: C, describe: string): SettingDefinition<C> {
  return {
    key,
    env,
    kind: 'choice',
    choices,
    multi: false,
    defaultText: fallback,
    describe,
    parse: (values) => {
      const raw = values.at(-1);
      if (raw === undefined) return { value: fallback };
      const v = raw.trim().toLowerCase();
      return (choices as readonly string[]).includes(v) ? { value: v as C } : { value: fallback, problem: `'${raw}' is not one of ${choices.join(', ')}; using ${fallback}` };
    },
  };
}

function textSetting(key: string, env: string, fallback: string, describe: string): SettingDefinition<string> {
  return { key, env, kind: 'text', multi: false, defaultText: fallback || '(none)', describe, parse: (values) => ({ value: values.at(-1)?.trim() || fallback }) };
}

function numberSetting(key: string, env: string, fallback: number, min: number, max: number, describe: string): SettingDefinition<number> {
  return {
    key,
    env,
    kind: 'number',
    multi: false,
    defaultText: String(fallback),
    describe,
    parse: (values) => {
      const raw = values.at(-1);
      if (raw === undefined || raw.trim() === '') return { value: fallback };
      const v = Number(raw.trim());
      return Number.isFinite(v) && v >= min && v <= max ? { value: v } : { value: fallback, problem: `'${raw}' is not a number from ${min} to ${max}; using ${fallback}` };
    },
  };
}

function listSetting(key: string, env: string | undefined, describe: string, fallback: string[] = []): SettingDefinition<string[]> {
  return {
    key,
    ...(env ? { env } : {}),
    kind: 'list',
    multi: true,
    defaultText: fallback.length ? fallback.join(', ') : '(none)',
    describe,
    parse: (values) => ({ value: values.length ? splitList(values) : fallback }),
  };
}

/** Every setting, in the order `git mem config` lists them. */
export const SETTINGS = {
  namespaces: listSetting('mem.namespaces', 'GIT_MEM_NAMESPACES', 'Namespaces besides the built-in ones (names match [a-z][a-z0-9-]*)'),
  autoCapture: boolSetting('mem.autoCapture', 'GIT_MEM_AUTO_CAPTURE', true, 'Claude Code hooks capture high-confidence statements (decisions, learnings, blockers) on their own'),
  pullOnStart: boolSetting('mem.hooks.pullOnStart', 'GIT_MEM_HOOKS_PULL_ON_START', false, 'The SessionStart hook pulls memories first, bounded in time'),
  relevanceFloor: numberSetting(
    'mem.hooks.relevanceFloor',
    'GIT_MEM_HOOKS_RELEVANCE_FLOOR',
    RELEVANCE_FLOOR,
    0,
    1,
    "Hooks inject a recalled memory only when its score is at least this share of the best match's (0 keeps every match, 1 only the best)",
  ),
  pushOnEnd: boolSetting('mem.hooks.pushOnEnd', 'GIT_MEM_HOOKS_PUSH_ON_END', false, 'The SessionEnd hook pushes memories, in a detached process'),
  secrets: choiceSetting('mem.secrets', 'GIT_MEM_SECRETS', SECRETS_MODES, 'redact', 'What a capture does with a detected secret: redact it, block the capture, or warn and store it as is'),
  secretsAllow: listSetting('mem.secrets.allow', undefined, 'SHA-256 digests of values that look like secrets but are not (git-mem prints the digest in its warnings)'),
  recallMode: choiceSetting('mem.recall.mode', 'GIT_MEM_RECALL_MODE', RECALL_MODES, 'hybrid', 'How git mem recall searches when --mode is not given; lexical never looks for the embedding model (nor says it is missing)'),
  queryEmbedding: choiceSetting(
    'mem.recall.queryEmbedding',
    'GIT_MEM_RECALL_QUERY_EMBEDDING',
    QUERY_EMBEDDINGS,
    'static',
    "How semantic search embeds the query: static (the token table distilled from the model by git mem model embed, milliseconds; the model until it exists) or model (the model itself, a few hundred milliseconds)",
  ),
  hooksSemantic: boolSetting('mem.hooks.semantic', 'GIT_MEM_HOOKS_SEMANTIC', true, "The prompt hook's recall fuses in semantic search when the static query table and stored vectors are there (it never loads the model)"),
  modelPath: textSetting('mem.modelPath', 'GIT_MEM_MODEL_PATH', '', 'A local copy of the embedding model (a directory); ~ is your home'),
  modelDownload: boolSetting('mem.modelDownload', 'GIT_MEM_MODEL_DOWNLOAD', true, 'Fetch the embedding model on first semantic use, where a network exists'),
  modelUrl: textSetting('mem.modelUrl', 'GIT_MEM_MODEL_URL', DEFAULT_MODEL_URL, 'Where the embedding model is fetched from'),
  connectThreshold: numberSetting(
    'mem.lifecycle.connect',
    'GIT_MEM_LIFECYCLE_CONNECT',
    CONNECT_THRESHOLD,
    0,
    1,
    'Word similarity (0-1) at or above which a new memory is linked to an existing one of its namespace (relates_to), and consolidate and gc count two memories as connected; 1 turns this off (stored links only)',
  ),
  connectCosine: numberSetting(
    'mem.lifecycle.connectCosine',
    'GIT_MEM_LIFECYCLE_CONNECT_COSINE',
    0.6,
    0,
    1,
    'Cosine similarity of embeddings at or above which git mem related counts a memory as near, when the embedding model is at hand (0.6 suits all-MiniLM-L6-v2)',
  ),
  protectNamespaces: listSetting('mem.lifecycle.protect', 'GIT_MEM_LIFECYCLE_PROTECT', 'Namespaces git mem gc never ages', ['decisions']),
  lifecycleTimeout: numberSetting('mem.lifecycle.timeout', 'GIT_MEM_LIFECYCLE_TIMEOUT', 60, 1, 86400, 'Seconds a --with command of git mem consolidate or gc may run before it is stopped'),
  captureWith: textSetting(
    'mem.capture.with',
    'GIT_MEM_CAPTURE_WITH',
    '',
    "A command (run by sh -c) that judges the Stop hook's candidates (statements from confidence 0.3): they go as JSON on stdin with instructions, the ones to capture come back as JSON on stdout (docs/capture.md); off when unset",
  ),
  trust: listSetting(
    'mem.trust',
    'GIT_MEM_TRUST',
    'Which revisions the hooks and MCP inject without review: local (written in this clone), signed (by a key git trusts), author:<email>, remote:<name>, all',
    DEFAULT_TRUST.split(','),
  ),
  sign: textSetting('mem.sign', 'GIT_MEM_SIGN', '', "Sign the notes commits git-mem writes with your gpg or ssh key (true/false); unset follows git's commit.gpgSign"),
  captureTimeout: numberSetting('mem.capture.timeout', 'GIT_MEM_CAPTURE_TIMEOUT', CAPTURE_TIMEOUT, 0.1, 25, "Seconds the mem.capture.with command may run before it is stopped, and none of the turn's candidates is captured (the Stop hook has 30)"),
} as const;

export type SettingName = keyof typeof SETTINGS;
type SettingValue<K extends SettingName> = ReturnType<(typeof SETTINGS)[K]['parse']>['value'];

/** How git spells a key in `git config -l` / `git var -l`: section and variable lowercased, subsection as written. */
export function configLookupKey(key: string): string {
  const parts = key.split('.');
  if (parts.length < 2) return key.toLowerCase();
  const first = parts[0]!.toLowerCase();
  const last = parts[parts.length - 1]!.toLowerCase();
  return [first, ...parts.slice(1, -1), last].join('.');
}

export interface ResolvedSetting<T> {
  value: T;
  source: SettingSource;
  /** The raw values it was read from (none for a default). */
  raw: string[];
  /** Set when the text given could not be used (then the value is the default). */
  problem?: string;
}

/** A setting's effective value: the environment variable if set, else git config, else the default. */
export function resolveSetting<K extends SettingName>(name: K, config: ReadonlyMap<string, readonly string[]>, env: NodeJS.ProcessEnv): ResolvedSetting<SettingValue<K>> {
  const def = SETTINGS[name] as SettingDefinition<SettingValue<K>>;
  const fromEnv = def.env !== undefined ? env[def.env] : undefined;
  const fromConfig = config.get(configLookupKey(def.key)) ?? [];
  const [source, raw]: [SettingSource, string[]] = fromEnv !== undefined ? ['environment', [fromEnv]] : fromConfig.length ? ['git config', [...fromConfig]] : ['default', []];
  const { value, problem } = def.parse(raw);
  return { value, source, raw, ...(problem ? { problem } : {}) };
}

/** Settings from `git var -l` run by `git` (in a repository: its config too; outside one: the global config). */
export function loadSettings(git: Git, env: NodeJS.ProcessEnv, cwd: string): Settings {
  const config = new Map<string, string[]>();
  for (const line of configAndIdentities(git).split('\n')) {
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq);
    config.set(key, [...(config.get(key) ?? []), line.slice(eq + 1)]);
  }
  const last = (key: string) => config.get(key)?.at(-1);
  const get = <K extends SettingName>(name: K) => resolveSetting(name, config, env).value;
  const { namespaces, invalid } = resolveNamespaces(get('namespaces'));
  const committerIdent = last('GIT_COMMITTER_IDENT') ?? `git-mem <git-mem@localhost> ${Math.floor(Date.now() / 1000)} +0000`;
  const author = (last('GIT_AUTHOR_IDENT') ?? committerIdent).replace(/\s+\d+\s+[+-]\d{4}$/, '');
  return {
    namespaces,
    invalidNamespaces: invalid,
    committerIdent,
    author,
    autoCapture: get('autoCapture'),
    pullOnStart: get('pullOnStart'),
    relevanceFloor: get('relevanceFloor'),
    pushOnEnd: get('pushOnEnd'),
    secrets: get('secrets'),
    secretsAllow: get('secretsAllow'),
    recallMode: get('recallMode'),
    queryEmbedding: get('queryEmbedding'),
    hooksSemantic: get('hooksSemantic'),
    ...modelPathOf(resolveSetting('modelPath', config, env), env, cwd),
    modelDownload: get('modelDownload'),
    modelUrl: get('modelUrl'),
    connectThreshold: get('connectThreshold'),
    connectCosine: get('connectCosine'),
    protectNamespaces: get('protectNamespaces'),
    lifecycleTimeoutMs: get('lifecycleTimeout') * 1000,
    captureWith: get('captureWith'),
    captureTimeoutMs: Math.round(get('captureTimeout') * 1000),
    pager: { corePager: last('core.pager'), pagerMem: last('pager.mem') },
    ...trustOf(get('trust')),
    sign: isTrue(get('sign') || last('commit.gpgsign') || ''),
  };
}

function isTrue(text: string): boolean {
  return /^(true|yes|on|1)$/i.test(text.trim());
}

function trustOf(values: string[]): Pick<Settings, 'trust' | 'trustProblem'> {
  try {
    return { trust: parseTrust(values) };
  } catch (err) {
    return { trust: parseTrust([]), trustProblem: (err as Error).message };
  }
}

function modelPathOf(r: ResolvedSetting<string>, env: NodeJS.ProcessEnv, cwd: string): Pick<Settings, 'modelPath'> {
  if (!r.value) return {};
  const dir = path.resolve(cwd, r.value.replace(/^~(?=$|\/)/, env.HOME ?? '~'));
  return { modelPath: { dir, source: r.source === 'environment' ? 'GIT_MEM_MODEL_PATH' : 'mem.modelPath' } };
}
