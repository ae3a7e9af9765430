import { describe, expect, it } from 'vitest';
import { cosine, dot } from '../../worker/core/embed/embedder.ts';
import { fnv1a, HashingEmbedder, words } from '../../worker/core/embed/hashing.ts';
import { CSV_SNIPPET, GO_SNIPPET, PYTHON_SNIPPET, RETRY_SNIPPET, YAML_SNIPPET } from '../support/seeds.ts';

const norm = (v: Float32Array) => Math.sqrt(dot(v, v));

describe('hashing embedder', () => {
  const embedder = new HashingEmbedder();

  it('names its space and size', () => {
    expect(embedder.id).toBe('hashing-v3-1024');
    expect(embedder.dimensions).toBe(1024);
    expect(new HashingEmbedder({ dimensions: 384 }).id).toBe('hashing-v3-384');
    expect(new HashingEmbedder({ ngramWeight: 0.5 }).id).not.toBe(embedder.id);
  });

  it('uses a stable FNV-1a', () => {
    // Reference values of 32-bit FNV-1a over the bytes (ASCII: each UTF-16 unit is its byte then 0).
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(fnv1a('a'));
    expect(fnv1a('a')).not.toBe(fnv1a('b'));
  });

  it('splits code-aware words', () => {
    expect(words('getUserName(user_id)')).toEqual(['get', 'user', 'name', 'user', 'id']);
    expect(words('parseHTTPResponse2 XMLHttpRequest kebab-case')).toEqual([
      'parse', 'http', 'response', '2', 'xml', 'http', 'request', 'kebab', 'case',
    ]);
    expect(words('Größe über_alles')).toEqual(['größe', 'über', 'alles']);
  });

  it('is deterministic and L2-normalised, one vector per text', async () => {
    const texts = ['def add(a, b): return a + b', 'Hello world', 'function getUserName() {}'];
    const [a, b] = [await embedder.embed(texts), await new HashingEmbedder().embed(texts)];
    expect(a).toHaveLength(3);
    for (let i = 0; i < 3; i++) {
      expect(a[i]).toBeInstanceOf(Float32Array);
      expect(a[i]!.length).toBe(1024);
      expect(Array.from(a[i]!)).toEqual(Array.from(b[i]!));
      expect(norm(a[i]!)).toBeCloseTo(1, 5);
    }
    // A fixed checksum pins the vectors across runtimes and releases: bump HASHING_VERSION if it moves.
    const v = embedder.embedOne('getUserName(user_id)');
    let checksum = 0;
    v.forEach((x, i) => (checksum += x * (i + 1)));
    expect(checksum).toBeCloseTo(-154.1739, 3);
    expect(v.filter((x) => x !== 0).length).toBe(42);
  });

  it('gives bit-identical vectors for many texts (a pin of every component, not only a checksum)', () => {
    // Texts long and short, with repeated features (counts above one), Unicode, and many distinct
    // features (more than any table's first size): the exact bits of all vectors, hashed.
    const texts = [
      PYTHON_SNIPPET, GO_SNIPPET, YAML_SNIPPET, RETRY_SNIPPET, CSV_SNIPPET,
      'x', 'aa aa aa aa', 'Größe über_alles naïve café', 'parseHTTPResponse2 XMLHttpRequest kebab-case',
      Array.from({ length: 400 }, (_, i) => `identifier${i} value_${i * 7} CamelCase${i % 13}`).join(' '),
    ];
    let hash = 0x811c9dc5;
    for (const text of texts) {
      for (const byte of new Uint8Array(embedder.embedOne(text).buffer)) hash = Math.imul(hash ^ byte, 0x01000193);
    }
    expect((hash >>> 0).toString(16)).toBe('f65a67a9');
  });

  it('gives a text the same vector after a very long one as in a fresh embedder (its tables are let go)', () => {
    const reused = new HashingEmbedder();
    const long = Array.from({ length: 30_000 }, (_, i) => `w${i.toString(36)}x`).join(' ');
    expect(reused.embedOne(long).some((x) => x !== 0)).toBe(true);
    expect(Array.from(reused.embedOne(PYTHON_SNIPPET))).toEqual(Array.from(new HashingEmbedder().embedOne(PYTHON_SNIPPET)));
  });

  it('gives the zero vector for a text without words', async () => {
    const [v] = await embedder.embed(['  ... ;; ']);
    expect(norm(v!)).toBe(0);
  });

  it('puts similar texts closer than unrelated ones', async () => {
    const [query, near, far] = await embedder.embed([
      'read a json file and parse it',
      'def read_json(path):\n    with open(path) as f:\n        return json.load(f)',
      'def rgb_to_hex(r, g, b):\n    return "#%02x%02x%02x" % (r, g, b)',
    ]);
    expect(cosine(query!, near!)).toBeGreaterThan(cosine(query!, far!) + 0.05);
    const [sort1, sort2, net] = await embedder.embed(['sort a list of numbers', 'sorting lists of integers', 'open a socket connection']);
    expect(cosine(sort1!, sort2!)).toBeGreaterThan(cosine(sort1!, net!));
  });

  it('shares camelCase and snake_case parts', async () => {
    const [camel, snake, other] = await embedder.embed(['getUserName', 'get_user_name', 'compute_checksum']);
    expect(cosine(camel!, snake!)).toBeGreaterThan(0.8);
    expect(cosine(camel!, other!)).toBeLessThan(0.3);
  });
});
