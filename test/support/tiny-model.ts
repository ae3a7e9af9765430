/**
 * Generates a tiny sentence-embedding model in the file layout transformers.js loads, so the tests can
 * prove the whole loading and embedding path (Node and the service worker in Chromium) without
 * downloading any weights:
 *
 *   <dir>/config.json             a `bert` config with tiny sizes
 *   <dir>/tokenizer.json          a WordPiece tokenizer (BERT normaliser and pre-tokeniser, [CLS] … [SEP])
 *   <dir>/tokenizer_config.json
 *   <dir>/onnx/model.onnx         an ONNX graph with seeded random weights, written by the small protobuf
 *                                 encoder below (no ONNX or protobuf package needed)
 *
 * The graph: word embedding + token-type embedding (Gather, Add) -> optional feed-forward blocks (to
 * give it a real model's cost) -> dense layer (MatMul, Add) -> Tanh -> times the attention mask -> `last_hidden_state` float [batch, sequence, hidden]. Inputs `input_ids`,
 * `attention_mask`, `token_type_ids`, int64 [batch, sequence], as a real BERT export has them.
 * Everything is a pure function of the options: the same seed gives the same bytes.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mulberry32 } from './random.ts';

export interface TinyModelOptions {
  /** Width of `last_hidden_state`, hence of the sentence vectors. Default 32. */
  hidden?: number;
  /** Seed of the random weights. Default 1. */
  seed?: number;
  /**
   * Feed-forward blocks (x + W2·tanh(W1·x + b1), width `intermediate`) before the output layer, to give
   * the model a real model's cost: hidden 384, intermediate 1536, 9 blocks is about all-MiniLM-L6-v2's
   * multiply-adds per token (attention aside). Default 0.
   */
  layers?: number;
  /** Width of a block's inner layer. Default 4 × hidden. */
  intermediate?: number;
  /**
   * Rows of the word-embedding table, at least the vocabulary's size (the extra rows are never looked
   * up): 30522 gives all-MiniLM-L6-v2's table, hence with the blocks above about its fp32 file size
   * (90 MB) and load time. Default the vocabulary's size.
   */
  embeddingRows?: number;
}

export const TINY_MODEL_ID = 'tessera-test/tiny-bert';

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const WORDS = (
  'the a an and or of to in on for with from by is are be it this that as at not no yes ' +
  'read write open close file files json parse parser string strings list lists sort sorted number numbers ' +
  'integer integers float int str dict map key keys value values array arrays object get set add remove ' +
  'delete create update user users name id path url http request response server client socket connection ' +
  'data base database query search index function def return class import export const let var async await ' +
  'error errors test tests hello world print log time date random hash vector embed model token text code'
).split(' ');
const PUNCTUATION = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
const SUFFIXES = ['s', 'es', 'ed', 'ing', 'er', 'ers', 'ly', 'ion', 'tion', 'able'];

/** The vocabulary, id = position: specials, punctuation, words, letters and `##` continuations. */
export function tinyVocabulary(): string[] {
  const vocab = [...SPECIAL, ...PUNCTUATION, ...WORDS, ...LETTERS, ...LETTERS.map((l) => `##${l}`), ...SUFFIXES.map((s) => `##${s}`)];
  return [...new Set(vocab)];
}

/** The model's files, by path relative to the model folder. */
export function tinyModelFiles(options: TinyModelOptions = {}): Record<string, string | Uint8Array> {
  const hidden = options.hidden ?? 32;
  const vocab = tinyVocabulary();
  const config = {
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: hidden,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: hidden * 2,
    hidden_act: 'gelu',
    max_position_embeddings: 512,
    type_vocab_size: 2,
    vocab_size: vocab.length,
    pad_token_id: 0,
    layer_norm_eps: 1e-12,
    transformers_version: '4.0.0',
  };
  return {
    'config.json': JSON.stringify(config, null, 2),
    'tokenizer.json': JSON.stringify(tokenizerJson(vocab), null, 2),
    'tokenizer_config.json': JSON.stringify(
      {
        tokenizer_class: 'BertTokenizer',
        do_lower_case: true,
        model_max_length: 512,
        clean_up_tokenization_spaces: true,
        cls_token: '[CLS]',
        sep_token: '[SEP]',
        pad_token: '[PAD]',
        unk_token: '[UNK]',
        mask_token: '[MASK]',
        strip_accents: null,
        tokenize_chinese_chars: true,
      },
      null,
      2,
    ),
    'onnx/model.onnx': onnxModel(
      Math.max(vocab.length, options.embeddingRows ?? 0),
      hidden,
      options.seed ?? 1,
      options.layers ?? 0,
      options.intermediate ?? hidden * 4,
    ),
  };
}

/**
 * Writes the model's files into `dir` (created if missing); returns `dir`. A file that already has the
 * right bytes is left alone and others are replaced atomically (write, then rename), so a reader
 * (a worker probing the folder, another test process writing the same model) never sees half a file.
 */
export async function writeTinyModel(dir: string, options: TinyModelOptions = {}): Promise<string> {
  for (const [name, content] of Object.entries(tinyModelFiles(options))) {
    const file = join(dir, name);
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    const existing = await readFile(file).catch(() => undefined);
    if (existing && Buffer.compare(existing, bytes) === 0) continue;
    await mkdir(join(file, '..'), { recursive: true });
    const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(partial, bytes);
    await rename(partial, file);
  }
  return dir;
}

function tokenizerJson(vocab: string[]) {
  const id = (token: string) => vocab.indexOf(token);
  const special = (token: string) => ({ id: token, type_id: 0 });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: special('[CLS]') }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: special('[SEP]') }],
      pair: [
        { SpecialToken: special('[CLS]') },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: special('[SEP]') },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((token, i) => [token, i])),
    },
  };
}

// ---- the ONNX graph ---------------------------------------------------------------------------------

const FLOAT = 1;
const INT64 = 7;

function onnxModel(vocabSize: number, hidden: number, seed: number, layers: number, intermediate: number): Uint8Array {
  const random = mulberry32(seed);
  const weights = (n: number, scale: number) => Float32Array.from({ length: n }, () => (random() * 2 - 1) * scale);
  const initializers = [
    tensor('word_embeddings', [vocabSize, hidden], FLOAT, weights(vocabSize * hidden, 1)),
    tensor('token_type_embeddings', [2, hidden], FLOAT, weights(2 * hidden, 0.1)),
  ];
  const nodes = [
    node('Gather', ['word_embeddings', 'input_ids'], ['word_vectors']),
    node('Gather', ['token_type_embeddings', 'token_type_ids'], ['type_vectors']),
    node('Add', ['word_vectors', 'type_vectors'], ['block_0']),
  ];
  for (let l = 0; l < layers; l++) {
    const [x, p] = [`block_${l}`, `layer_${l}`];
    initializers.push(
      tensor(`${p}_w1`, [hidden, intermediate], FLOAT, weights(hidden * intermediate, 1 / Math.sqrt(hidden))),
      tensor(`${p}_b1`, [intermediate], FLOAT, weights(intermediate, 0.1)),
      tensor(`${p}_w2`, [intermediate, hidden], FLOAT, weights(intermediate * hidden, 0.5 / Math.sqrt(intermediate))),
    );
    nodes.push(
      node('MatMul', [x, `${p}_w1`], [`${p}_up`]),
      node('Add', [`${p}_up`, `${p}_b1`], [`${p}_biased`]),
      node('Tanh', [`${p}_biased`], [`${p}_act`]),
      node('MatMul', [`${p}_act`, `${p}_w2`], [`${p}_down`]),
      node('Add', [x, `${p}_down`], [`block_${l + 1}`]),
    );
  }
  initializers.push(
    tensor('dense_weight', [hidden, hidden], FLOAT, weights(hidden * hidden, 1 / Math.sqrt(hidden))),
    tensor('dense_bias', [hidden], FLOAT, weights(hidden, 0.1)),
    tensor('last_axis', [1], INT64, new BigInt64Array([-1n])),
  );
  nodes.push(
    node('MatMul', [`block_${layers}`, 'dense_weight'], ['projected']),
    node('Add', ['projected', 'dense_bias'], ['biased']),
    node('Tanh', ['biased'], ['activated']),
    node('Cast', ['attention_mask'], ['mask_float'], [attributeInt('to', FLOAT)]),
    node('Unsqueeze', ['mask_float', 'last_axis'], ['mask_3d']),
    node('Mul', ['activated', 'mask_3d'], ['last_hidden_state']),
  );
  const tokens = ['batch_size', 'sequence_length'];
  const graph = message([
    ...nodes.map((n) => bytesField(1, n)),
    stringField(2, 'tiny_bert'),
    ...initializers.map((t) => bytesField(5, t)),
    ...['input_ids', 'attention_mask', 'token_type_ids'].map((name) => bytesField(11, valueInfo(name, INT64, tokens))),
    bytesField(12, valueInfo('last_hidden_state', FLOAT, [...tokens, hidden])),
  ]);
  return message([
    varintField(1, 8), // ir_version 8 (ONNX 1.10+)
    stringField(2, 'tessera-tiny-model'),
    stringField(3, '1'),
    bytesField(7, graph),
    bytesField(8, message([stringField(1, ''), varintField(2, 14)])), // opset_import: ai.onnx 14
  ]);
}

function node(opType: string, inputs: string[], outputs: string[], attributes: Uint8Array[] = []): Uint8Array {
  return message([
    ...inputs.map((i) => stringField(1, i)),
    ...outputs.map((o) => stringField(2, o)),
    stringField(3, `${opType}_${outputs[0]}`),
    stringField(4, opType),
    ...attributes.map((a) => bytesField(5, a)),
  ]);
}

function attributeInt(name: string, value: number): Uint8Array {
  return message([stringField(1, name), varintField(3, value), varintField(20, 2 /* INT */)]);
}

function tensor(name: string, dims: number[], dataType: number, data: Float32Array | BigInt64Array): Uint8Array {
  const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength); // little-endian, as ONNX wants
  return message([...dims.map((d) => varintField(1, d)), varintField(2, dataType), stringField(8, name), bytesField(9, raw)]);
}

function valueInfo(name: string, elemType: number, shape: (string | number)[]): Uint8Array {
  const dims = shape.map((d) => bytesField(1, message([typeof d === 'number' ? varintField(1, d) : stringField(2, d)])));
  const tensorType = message([varintField(1, elemType), bytesField(2, message(dims))]);
  return message([stringField(1, name), bytesField(2, message([bytesField(1, tensorType)]))]);
}

// ---- a minimal protobuf writer: varints and length-delimited fields, all the ONNX graph needs --------

function varint(value: number | bigint): number[] {
  // Negative int64 values are 10-byte two's complement varints.
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}

function varintField(field: number, value: number | bigint): Uint8Array {
  return Uint8Array.from([...varint((field << 3) | 0), ...varint(value)]);
}

function bytesField(field: number, bytes: Uint8Array): Uint8Array {
  return message([Uint8Array.from([...varint((field << 3) | 2), ...varint(bytes.length)]), bytes]);
}

function stringField(field: number, text: string): Uint8Array {
  return bytesField(field, new TextEncoder().encode(text));
}

function message(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

