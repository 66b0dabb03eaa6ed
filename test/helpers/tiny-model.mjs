// Generates sentence-embedding models offline, laid out like a Hugging Face
// repository (config.json, tokenizer.json, tokenizer_config.json,
// onnx/model_quantized.onnx), so that tests and benchmarks exercise git-mem's
// real model loading and embedding code without a network.
//
//   tiny:   a Gather over a seeded random embedding table (plus a token-type
//           table), times the attention mask. Mean-pooled, it is a bag of words:
//           texts that share words are close. 0.5 MB; loads in milliseconds.
//   minilm: a random-weight BERT with the shape of all-MiniLM-L6-v2 (vocabulary
//           30,522, 6 layers, hidden 384, 12 heads, FFN 1,536, int8 weights with
//           dynamic quantization like the published model_quantized.onnx), for
//           timing only: its vectors mean nothing.
//
// The ONNX protobuf is written by hand (a dozen field numbers of onnx.proto),
// so no protobuf library is needed.
//
//   node test/helpers/tiny-model.mjs DIR [tiny|minilm]
import fs from 'node:fs';
import path from 'node:path';

// ---------------------------------------------------------------- protobuf
function varint(n) {
  const out = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return Buffer.from(out);
}
const key = (field, wire) => varint((field << 3) | wire);
const int = (field, n) => Buffer.concat([key(field, 0), varint(n)]);
const bytes = (field, buf) => Buffer.concat([key(field, 2), varint(buf.length), buf]);
const str = (field, s) => bytes(field, Buffer.from(s, 'utf8'));
const msg = (field, parts) => bytes(field, Buffer.concat(parts));
const f32 = (field, x) => {
  const b = Buffer.alloc(4);
  b.writeFloatLE(x);
  return Buffer.concat([key(field, 5), b]);
};

const FLOAT = 1;
const UINT8 = 2;
const INT8 = 3;
const INT64 = 7;

/** TensorProto: dims 1, data_type 2, name 8, raw_data 9. */
function tensor(name, type, dims, raw) {
  return [...dims.map((d) => int(1, d)), int(2, type), str(8, name), bytes(9, Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength))];
}
/** ValueInfoProto with a tensor type; a dim is a number or a symbolic name. */
function valueInfo(name, type, dims) {
  const shape = dims.map((d) => msg(1, [typeof d === 'number' ? int(1, d) : str(2, d)]));
  return [str(1, name), msg(2, [msg(1, [int(1, type), msg(2, shape)])])];
}
/** AttributeProto: name 1, f 2, i 3, ints 8, type 20 (FLOAT 1, INT 2, INTS 7). */
function attr(name, value) {
  if (Array.isArray(value)) return [str(1, name), ...value.map((v) => int(8, v)), int(20, 7)];
  if (Number.isInteger(value)) return [str(1, name), int(3, value), int(20, 2)];
  return [str(1, name), f32(2, value), int(20, 1)];
}

class Graph {
  nodes = [];
  inits = [];
  n = 0;
  init(name, type, dims, data) {
    this.inits.push(msg(5, tensor(name, type, dims, data)));
    return name;
  }
  scalar(value) {
    return this.init(`c${this.n++}`, FLOAT, [], new Float32Array([value]));
  }
  ints(values) {
    return this.init(`c${this.n++}`, INT64, [values.length], new BigInt64Array(values.map(BigInt)));
  }
  /** NodeProto: input 1, output 2, name 3, op_type 4, attribute 5. Returns the (first) output name. */
  op(type, inputs, attrs = {}, outputs = 1) {
    const id = this.n++;
    const outs = Array.from({ length: outputs }, (_, i) => `t${id}_${i}`);
    this.nodes.push(msg(1, [...inputs.map((i) => str(1, i)), ...outs.map((o) => str(2, o)), str(3, `n${id}`), str(4, type), ...Object.entries(attrs).map(([k, v]) => msg(5, attr(k, v)))]));
    return outputs === 1 ? outs[0] : outs;
  }
  /** ModelProto: ir_version 1, opset_import 8, producer_name 2, graph 7; GraphProto: node 1, name 2, initializer 5, input 11, output 12. */
  encode(inputs, outputs) {
    const graph = [...this.nodes, str(2, 'git-mem-test-model'), ...this.inits, ...inputs.map((v) => msg(11, v)), ...outputs.map((v) => msg(12, v))];
    return Buffer.concat([int(1, 7), msg(8, [str(1, ''), int(2, 13)]), str(2, 'git-mem test/helpers/tiny-model.mjs'), msg(7, graph)]);
  }
}

// ---------------------------------------------------------------- weights
function rng(seed) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  return (n, scale = 1) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i += 2) {
      const u = Math.max(next(), 1e-12);
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u)) * scale;
      out[i] = r * Math.cos(2 * Math.PI * v);
      if (i + 1 < n) out[i + 1] = r * Math.sin(2 * Math.PI * v);
    }
    return out;
  };
}

// ---------------------------------------------------------------- vocabulary
const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const WORDS = `the a an of to in and or for on with by at from as is are was were be been it this that we you they i he she not no yes
why how what when where which who did do does done use used using make made keep kept add added fix fixed run ran read write wrote
index indexes indexing cache cached caching caches note notes git commit commits branch branches merge merged merging rebase remote
push pull fetch sync clone worktree worktrees ref refs tree trees blob object objects hook hooks session sessions prompt context token
tokens budget search recall query queries rank ranking ranked lexical semantic hybrid fusion vector vectors embedding embeddings model
models sqlite sql js wasm database db table tables schema version migration test tests testing flaky timeout timeouts slow fast speed
latency performance memory memories decision decisions learning learnings blocker blockers progress pattern patterns review reviews
error errors bug bugs crash crashes lock locks locking retry retries conflict conflicts concurrent concurrency process processes
file files path paths windows linux mac ci build builds binary compile compiled bundle native addon module modules import export
network download offline proxy tls certificate auth login password secret secrets redact key keys api server client request
response json yaml markdown format parse parser parsing config configuration setting settings option options default value values
user users team teams developer developers code review reviewer docs documentation readme release deploy deployment production
storage disk space size large small big tiny data row rows column columns time date week day month year old new first last next
because so but if then else while after before during without within about into over under again always never often sometimes
chose choose picked decided switched replaced removed moved renamed split joined learned realized discovered found broke broken
works working failed failing passes passing green red stuck blocked waiting resolved closed open`.split(/\s+/).filter(Boolean);

function vocabulary(target) {
  const tokens = [...SPECIAL];
  const seen = new Set(tokens);
  const add = (t) => {
    if (!seen.has(t)) {
      seen.add(t);
      tokens.push(t);
    }
  };
  for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789.,;:!?\'"()[]{}-_/\\@#$%&*+=<>|~`^') add(c);
  for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') add(`##${c}`);
  for (const w of WORDS) add(w);
  for (let i = 0; tokens.length < target; i++) add(`w${i.toString(36)}`);
  return tokens;
}

function tokenizerFiles(vocab, maxLength) {
  const id = (t) => vocab.indexOf(t);
  const added = SPECIAL.map((content) => ({ id: id(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }));
  const special = (t) => ({ SpecialToken: { id: t, type_id: 0 } });
  const tokenizer = {
    version: '1.0',
    truncation: { direction: 'Right', max_length: maxLength, strategy: 'LongestFirst', stride: 0 },
    padding: null,
    added_tokens: added,
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
      pair: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]'), { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(vocab.map((t, i) => [t, i])) },
  };
  const config = {
    clean_up_tokenization_spaces: true,
    cls_token: '[CLS]',
    do_basic_tokenize: true,
    do_lower_case: true,
    mask_token: '[MASK]',
    model_max_length: maxLength,
    never_split: null,
    pad_token: '[PAD]',
    sep_token: '[SEP]',
    strip_accents: null,
    tokenize_chinese_chars: true,
    tokenizer_class: 'BertTokenizer',
    unk_token: '[UNK]',
  };
  return { tokenizer, config };
}

// ---------------------------------------------------------------- models
const IO = (g) => ({
  inputs: [valueInfo('input_ids', INT64, ['batch', 'sequence']), valueInfo('attention_mask', INT64, ['batch', 'sequence']), valueInfo('token_type_ids', INT64, ['batch', 'sequence'])],
  output: (dim) => valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', dim]),
  g,
});

/** Bag of words: (E[input_ids] + T[token_type_ids]) * attention_mask. */
function tinyGraph(vocabSize, dim, seed) {
  const g = new Graph();
  const rand = rng(seed);
  const table = rand(vocabSize * dim);
  // Special tokens ([PAD], [UNK], [CLS], [SEP], [MASK]) carry no meaning: zero rows, so two texts are not alike for sharing [CLS] and [SEP].
  table.fill(0, 0, SPECIAL.length * dim);
  const words = g.init('word_embeddings', FLOAT, [vocabSize, dim], table);
  const types = g.init('token_type_embeddings', FLOAT, [2, dim], rand(2 * dim, 0.01));
  const e = g.op('Add', [g.op('Gather', [words, 'input_ids']), g.op('Gather', [types, 'token_type_ids'])]);
  const mask = g.op('Unsqueeze', [g.op('Cast', ['attention_mask'], { to: FLOAT }), g.ints([-1])]);
  g.nodes.push(msg(1, [str(1, e), str(1, mask), str(2, 'last_hidden_state'), str(3, 'out'), str(4, 'Mul')]));
  const io = IO(g);
  return g.encode(io.inputs, [io.output(dim)]);
}

/** A BERT encoder of MiniLM's shape with random weights, MatMuls int8-quantized as onnxruntime's dynamic quantization writes them. */
function bertGraph({ vocabSize, dim, layers, heads, ffn, maxPositions, seed }) {
  const g = new Graph();
  const rand = rng(seed);
  const quantized = (name, rows, cols) => {
    const w = rand(rows * cols, 0.05);
    let max = 0;
    for (const x of w) max = Math.max(max, Math.abs(x));
    const scale = max / 127;
    const q = new Int8Array(w.length);
    for (let i = 0; i < w.length; i++) q[i] = Math.round(w[i] / scale);
    return { w: g.init(name, INT8, [rows, cols], q), scale: g.init(`${name}_scale`, FLOAT, [], new Float32Array([scale])), zero: g.init(`${name}_zero`, INT8, [], new Int8Array([0])) };
  };
  const dense = (x, name, rows, cols) => {
    const W = quantized(name, rows, cols);
    const [xq, xs, xz] = g.op('DynamicQuantizeLinear', [x], {}, 3);
    const acc = g.op('MatMulInteger', [xq, W.w, xz, W.zero]);
    const f = g.op('Cast', [acc], { to: FLOAT });
    const y = g.op('Mul', [f, g.op('Mul', [xs, W.scale])]);
    return g.op('Add', [y, g.init(`${name}_bias`, FLOAT, [cols], rand(cols, 0.02))]);
  };
  const layerNorm = (x, name) => {
    const mean = g.op('ReduceMean', [x], { axes: [-1] });
    const d = g.op('Sub', [x, mean]);
    const variance = g.op('ReduceMean', [g.op('Mul', [d, d])], { axes: [-1] });
    const n = g.op('Div', [d, g.op('Sqrt', [g.op('Add', [variance, g.scalar(1e-12)])])]);
    const gamma = new Float32Array(dim).fill(1);
    return g.op('Add', [g.op('Mul', [n, g.init(`${name}_gamma`, FLOAT, [dim], gamma)]), g.init(`${name}_beta`, FLOAT, [dim], new Float32Array(dim))]);
  };

  // Embeddings: word (int8, dequantized) + position + token type, then LayerNorm.
  const wq = rand(vocabSize * dim, 0.05);
  const wScale = 0.25 / 127;
  const wInt = new Uint8Array(wq.length);
  for (let i = 0; i < wq.length; i++) wInt[i] = Math.max(0, Math.min(255, Math.round(wq[i] / wScale) + 128));
  const words = g.op('DequantizeLinear', [g.init('word_embeddings_q', UINT8, [vocabSize, dim], wInt), g.init('word_scale', FLOAT, [], new Float32Array([wScale])), g.init('word_zero', UINT8, [], new Uint8Array([128]))]);
  const seqLen = g.op('Gather', [g.op('Shape', ['input_ids']), g.ints([1])]);
  const positions = g.op('Unsqueeze', [g.op('Range', [g.init('zero64', INT64, [], new BigInt64Array([0n])), g.op('Squeeze', [seqLen]), g.init('one64', INT64, [], new BigInt64Array([1n]))]), g.ints([0])]);
  let x = g.op('Add', [
    g.op('Add', [g.op('Gather', [words, 'input_ids']), g.op('Gather', [g.init('position_embeddings', FLOAT, [maxPositions, dim], rand(maxPositions * dim, 0.02)), positions])]),
    g.op('Gather', [g.init('token_type_embeddings', FLOAT, [2, dim], rand(2 * dim, 0.02)), 'token_type_ids']),
  ]);
  x = layerNorm(x, 'emb_ln');

  // Additive attention mask: (1 - mask) * -10000, shaped [batch, 1, 1, seq].
  const maskF = g.op('Cast', [g.op('Unsqueeze', ['attention_mask', g.ints([1, 2])])], { to: FLOAT });
  const bias = g.op('Mul', [g.op('Sub', [g.scalar(1), maskF]), g.scalar(-10000)]);
  const headDim = dim / heads;
  const splitHeads = (t) => g.op('Transpose', [g.op('Reshape', [t, g.ints([0, 0, heads, headDim])])], { perm: [0, 2, 1, 3] });
  for (let l = 0; l < layers; l++) {
    const q = splitHeads(dense(x, `l${l}_q`, dim, dim));
    const k = g.op('Transpose', [g.op('Reshape', [dense(x, `l${l}_k`, dim, dim), g.ints([0, 0, heads, headDim])])], { perm: [0, 2, 3, 1] });
    const v = splitHeads(dense(x, `l${l}_v`, dim, dim));
    const scores = g.op('Add', [g.op('Div', [g.op('MatMul', [q, k]), g.scalar(Math.sqrt(headDim))]), bias]);
    const ctx = g.op('MatMul', [g.op('Softmax', [scores], { axis: -1 }), v]);
    const merged = g.op('Reshape', [g.op('Transpose', [ctx], { perm: [0, 2, 1, 3] }), g.ints([0, 0, dim])]);
    x = layerNorm(g.op('Add', [dense(merged, `l${l}_o`, dim, dim), x]), `l${l}_ln1`);
    const h = dense(x, `l${l}_i`, dim, ffn);
    // GELU: 0.5 * h * (1 + erf(h / sqrt 2))
    const gelu = g.op('Mul', [g.op('Mul', [h, g.scalar(0.5)]), g.op('Add', [g.op('Erf', [g.op('Div', [h, g.scalar(Math.SQRT2)])]), g.scalar(1)])]);
    x = layerNorm(g.op('Add', [dense(gelu, `l${l}_out`, ffn, dim), x]), `l${l}_ln2`);
  }
  g.nodes.push(msg(1, [str(1, x), str(2, 'last_hidden_state'), str(3, 'out'), str(4, 'Identity')]));
  const io = IO(g);
  return g.encode(io.inputs, [io.output(dim)]);
}

export const MODEL_SHAPES = {
  tiny: { vocabSize: 2048, dim: 64, maxLength: 128 },
  minilm: { vocabSize: 30522, dim: 384, layers: 6, heads: 12, ffn: 1536, maxPositions: 512, maxLength: 512 },
};

/**
 * Writes a model directory (config.json, tokenizer.json, tokenizer_config.json,
 * onnx/model_quantized.onnx) at `dir`; returns `dir`. Deterministic for a seed.
 * @param {string} dir
 * @param {{ kind?: 'tiny' | 'minilm', seed?: number }} [options]
 */
export function writeTestModel(dir, { kind = 'tiny', seed = 42 } = {}) {
  const shape = MODEL_SHAPES[kind];
  const vocab = vocabulary(shape.vocabSize);
  const onnx = kind === 'tiny' ? tinyGraph(shape.vocabSize, shape.dim, seed) : bertGraph({ ...shape, seed });
  const { tokenizer, config: tokenizerConfig } = tokenizerFiles(vocab, shape.maxLength);
  const config = {
    _name_or_path: `git-mem-test/${kind}`,
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: shape.dim,
    num_attention_heads: shape.heads ?? 1,
    num_hidden_layers: shape.layers ?? 0,
    intermediate_size: shape.ffn ?? shape.dim,
    max_position_embeddings: shape.maxPositions ?? shape.maxLength,
    vocab_size: shape.vocabSize,
    type_vocab_size: 2,
    pad_token_id: 0,
  };
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizer));
  fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), `${JSON.stringify(tokenizerConfig, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, 'onnx', 'model_quantized.onnx'), onnx);
  return dir;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, kind = 'tiny'] = process.argv.slice(2);
  if (!dir || !(kind in MODEL_SHAPES)) {
    console.error('usage: node test/helpers/tiny-model.mjs DIR [tiny|minilm]');
    process.exit(2);
  }
  writeTestModel(dir, { kind });
  console.log(`${kind} model written to ${dir}`);
}
