export const MODEL_SHAPES: Record<'tiny' | 'minilm', { vocabSize: number; dim: number; maxLength: number }>;
export function writeTestModel(dir: string, options?: { kind?: 'tiny' | 'minilm'; seed?: number }): string;
