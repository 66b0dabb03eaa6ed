/** How to run this same git-mem again: the compiled binary, or bun with the source entry point. */
export function selfCommand(): string[] {
  const script = process.argv[1];
  return script && /\.(?:ts|js|mjs)$/.test(script) ? [process.execPath, script] : [process.execPath];
}
