/** Loads sql.js once. The inline build carries its wasm, so it works from node_modules and inside the compiled binary alike. */
import type { SqlJsStatic } from 'sql.js';

let engine: Promise<SqlJsStatic> | undefined;

export function loadSqlJs(): Promise<SqlJsStatic> {
  engine ??= import('sql.js/dist/sql-wasm-inline.js').then((m) => m.default());
  return engine;
}
