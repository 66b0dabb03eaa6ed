/** The namespaces of the reference system, in its order, with what each holds. */
export const BUILTIN_NAMESPACES: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'inception', description: 'Problem statements, scope, initial vision' },
  { name: 'elicitation', description: 'Requirements and constraints' },
  { name: 'research', description: 'External findings, technology evaluations' },
  { name: 'decisions', description: 'Architecture decisions and their rationale' },
  { name: 'progress', description: 'Milestones, completed work, pending actions' },
  { name: 'blockers', description: 'Obstacles and how they were resolved' },
  { name: 'reviews', description: 'Code review findings' },
  { name: 'learnings', description: 'Insights and lessons learned' },
  { name: 'retrospective', description: 'Post-mortems and retrospectives' },
  { name: 'patterns', description: 'Cross-project practices and recurring solutions' },
];

export const NAMESPACE_NAME = /^[a-z][a-z0-9-]*$/;
export const NOTES_REF_PREFIX = 'refs/notes/mem/';

export function notesRef(namespace: string): string {
  return NOTES_REF_PREFIX + namespace;
}

export interface NamespaceInfo {
  name: string;
  description: string;
  builtin: boolean;
}

/** Built-in namespaces plus valid configured extras (invalid names are reported, not used). */
export function resolveNamespaces(extra: readonly string[]): { namespaces: NamespaceInfo[]; invalid: string[] } {
  const namespaces: NamespaceInfo[] = BUILTIN_NAMESPACES.map((n) => ({ ...n, builtin: true }));
  const invalid: string[] = [];
  for (const name of extra) {
    if (!NAMESPACE_NAME.test(name)) invalid.push(name);
    else if (!namespaces.some((n) => n.name === name)) namespaces.push({ name, description: 'Configured namespace', builtin: false });
  }
  return { namespaces, invalid };
}
