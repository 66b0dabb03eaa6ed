/** Files embedded in the compiled binary (`import path from '...' with { type: 'file' }`): the import is their path. */
declare module '*/libonnxruntime.so.1.14.0' {
  const path: string;
  export default path;
}

/** The little of Bun's FFI that preloading a shared library needs (no @types/bun in this project). */
declare module 'bun:ffi' {
  export function dlopen(path: string, symbols: Record<string, { args: string[]; returns: string }>): { close(): void };
}
