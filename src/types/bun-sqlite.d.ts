/** The little of Bun's built-in SQLite that completion of ids uses (no @types/bun in this project). */
declare module 'bun:sqlite' {
  export class Database {
    constructor(file: string, options?: { readonly?: boolean; create?: boolean });
    query(sql: string): { all(...params: unknown[]): unknown[]; get(...params: unknown[]): unknown };
    close(): void;
  }
}
