// Types for tools/check-architecture.mjs, for the test that plants breaches through its API.
export interface ArchitectureReport {
  /** The modules checked, relative to the source root. */
  files: string[];
  /** Each breach (as printed after `architecture: `) → where it happens. */
  breaches: Map<string, string[]>;
  /** Module → the modules of the tree it imports (absolute paths). */
  graph: Map<string, string[]>;
  layerOf(file: string): string;
  exceptions: Map<string, string>;
}
export function checkArchitecture(options?: { src?: string; tsconfig?: string }): ArchitectureReport;
