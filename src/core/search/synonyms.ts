/**
 * Words that mean the same to a developer, applied at query time: a query
 * word also matches the others of its group (at SYNONYM_WEIGHT of its own
 * score, core/search/query.ts), so "db" finds "database" and "k8s" finds
 * "kubernetes". Only equivalents (abbreviations, spellings, irregular
 * plurals), never related words: "login" and "password" are not the same
 * thing, and matching one for the other would bury the memories that say
 * exactly what was asked. Pure.
 */
/** Groups of words meaning the same, as typed (each is analysed like any query word). */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['db', 'database', 'databases'],
  ['auth', 'authentication', 'authn', 'login', 'signin', 'logon'],
  ['authz', 'authorization', 'authorisation'],
  ['k8s', 'kubernetes', 'kube'],
  ['perf', 'performance'],
  ['repo', 'repository', 'repos', 'repositories'],
  ['configuration', 'config', 'cfg', 'conf'],
  ['env', 'environment', 'envs', 'environments'],
  ['deps', 'dependencies', 'dependency', 'dep'],
  ['prod', 'production'],
  ['dev', 'development'],
  ['docs', 'documentation', 'doc'],
  ['pg', 'postgres', 'postgresql', 'psql'],
  ['mongo', 'mongodb'],
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['py', 'python'],
  ['infra', 'infrastructure'],
  ['admin', 'administrator'],
  ['app', 'application'],
  ['lib', 'library', 'libraries'],
  ['pkg', 'package'],
  ['impl', 'implementation'],
  ['fn', 'func', 'function'],
  ['param', 'parameter', 'params', 'parameters'],
  ['arg', 'argument', 'args', 'arguments'],
  ['var', 'variable', 'vars', 'variables'],
  ['msg', 'message', 'msgs', 'messages'],
  ['err', 'error', 'errors'],
  ['req', 'request', 'reqs', 'requests'],
  ['tx', 'txn', 'transaction', 'transactions'],
  ['ws', 'websocket', 'websockets'],
  ['dir', 'directory', 'folder', 'dirs', 'directories', 'folders'],
  ['tmp', 'temp', 'temporary'],
  ['e2e', 'end-to-end'],
  ['spec', 'specification'],
  ['cred', 'creds', 'credential', 'credentials'],
  ['pw', 'pwd', 'passwd', 'password', 'passwords'],
  ['async', 'asynchronous'],
  ['max', 'maximum'],
  ['min', 'minimum'],
  ['img', 'image', 'images'],
  ['cert', 'certs', 'certificate', 'certificates'],
  ['sync', 'synchronize', 'synchronise', 'synchronization', 'synchronisation'],
  ['init', 'initialize', 'initialise', 'initialization', 'initialisation'],
  ['util', 'utils', 'utility', 'utilities'],
  ['stats', 'statistics'],
  ['info', 'information'],
  ['mgr', 'manager'],
  ['ctx', 'context'],
  ['cmd', 'command', 'cmds', 'commands'],
  ['src', 'source'],
  ['dst', 'dest', 'destination'],
  ['num', 'number'],
  ['str', 'string'],
  ['int', 'integer'],
  ['bool', 'boolean'],
  ['obj', 'object'],
  ['idx', 'index'],
  ['len', 'length'],
  ['addr', 'address'],
  ['btn', 'button'],
  ['regex', 'regexp', 'regexes', 'regexps'],
  ['prefs', 'preferences', 'settings'],
  ['nav', 'navigation'],
  ['notif', 'notification', 'notifications'],
  ['ssl', 'tls'],
  ['i18n', 'internationalization', 'internationalisation'],
  ['l10n', 'localization', 'localisation'],
  ['a11y', 'accessibility'],
  ['pic', 'pics', 'photo', 'photos', 'picture', 'pictures'],
  ['email', 'e-mail', 'mail'],
  ['kid', 'kids', 'child', 'children'],
  ['mom', 'mum', 'mother'],
  ['dad', 'father'],
  ['movie', 'film'],
  ['bike', 'bicycle'],
  ['tv', 'television'],
];

/**
 * Word as typed (lowercase) → the other words of its groups. Keyed by the
 * word, not its stem: a cold process then stems only the query's synonyms,
 * not the whole table (groups list the plural where it matters). A word in
 * two groups gets both; hyphenated spellings (two words to the tokenizer) are left out.
 */
export function synonymTable(): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const group of SYNONYM_GROUPS) {
    const words = group.filter((w) => /^[a-z0-9]+$/.test(w));
    for (const word of words) {
      const others = words.filter((w) => w !== word);
      table.set(word, [...new Set([...(table.get(word) ?? []), ...others])]);
    }
  }
  return table;
}
