/**
 * The little of @xenova/transformers 2.x that git-mem uses, imported from its
 * source modules (the package ships types only for its main entry, which also
 * loads the image, audio and pipeline code git-mem has no use for).
 */
declare module '@xenova/transformers/src/tokenizers.js' {
  import type { Tensor } from 'onnxruntime-common';

  export interface Encoding {
    input_ids: Tensor;
    attention_mask: Tensor;
    token_type_ids?: Tensor;
  }

  export interface PreTrainedTokenizer {
    (texts: string | string[], options?: { padding?: boolean | 'max_length'; truncation?: boolean; max_length?: number }): Encoding;
    model_max_length: number;
  }

  export type TokenizerClass = new (tokenizerJSON: unknown, tokenizerConfig: unknown) => PreTrainedTokenizer;

  export const PreTrainedTokenizer: TokenizerClass;
  export const AutoTokenizer: { TOKENIZER_CLASS_MAPPING: Record<string, TokenizerClass | undefined> };
}

declare module '@xenova/transformers/src/backends/onnx.js' {
  import type * as ort from 'onnxruntime-common';

  /** onnxruntime-node under Node.js and Bun, onnxruntime-web elsewhere. */
  export const ONNX: typeof ort;
}
