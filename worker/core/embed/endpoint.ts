/**
 * An embedder over an OpenAI-compatible embeddings endpoint (Ollama, LM Studio, llama.cpp's server, a
 * hosted one): POST `<url>/embeddings` `{model, input: string[]}`, the vectors read from
 * `{data: [{index, embedding: number[]}]}`. Texts go in batches of BATCH; each vector is L2-normalised here
 * (servers differ on that); an empty text gets the zero vector without asking.
 *
 * Every way the endpoint can fail (network error, non-2xx, a body that is not that JSON, a wrong count,
 * vectors of differing or changing lengths, non-finite numbers, nothing within the timeout) is an
 * EmbeddingEndpointError with a short reason that never quotes the endpoint (an error body may echo the key).
 */
import { normalize, type Embedder, type EmbedderInfo } from './embedder.ts';

export interface EndpointSettings {
  /** The API base, e.g. `http://localhost:11434/v1`; requests go to `<url>/embeddings`. */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
}

export const EMBEDDING_TIMEOUT_MS = 30_000;
/** Texts a request carries at most. */
const BATCH = 64;

export class EmbeddingEndpointError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'EmbeddingEndpointError';
  }
}

/** The id of an endpoint's vector space: its model and where it is served (no credentials, no query). */
export function endpointEmbedderId(settings: EndpointSettings): string {
  const url = new URL(settings.url);
  return `endpoint:${settings.model}@${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export class EndpointEmbedder implements Embedder {
  readonly id: string;
  /** Known after the first answer (0 before). */
  dimensions = 0;

  constructor(
    readonly settings: EndpointSettings,
    private readonly fetcher: typeof fetch,
    private readonly timeoutMs = EMBEDDING_TIMEOUT_MS,
  ) {
    this.id = endpointEmbedderId(settings);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = new Array(texts.length);
    const asked: number[] = [];
    texts.forEach((text, i) => (text.trim() === '' ? (out[i] = new Float32Array(this.dimensions)) : asked.push(i)));
    for (let b = 0; b < asked.length; b += BATCH) {
      const batch = asked.slice(b, b + BATCH);
      const vectors = await this.request(batch.map((i) => texts[i]!));
      batch.forEach((i, k) => (out[i] = vectors[k]!));
    }
    // Zero vectors made before the length was known take it now.
    return out.map((v) => (v.length === this.dimensions ? v : new Float32Array(this.dimensions)));
  }

  describe(): EmbedderInfo {
    // Its length is known from the first answer: until then it is only configured.
    const status = this.dimensions > 0 ? 'ready' : 'available';
    return { id: this.id, dimensions: this.dimensions, kind: 'endpoint', status, reason: `the embeddings endpoint ${this.settings.model} at ${this.settings.url}` };
  }

  private async request(input: string[]): Promise<Float32Array[]> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      let response: Response;
      try {
        response = await this.fetcher(`${this.settings.url.replace(/\/+$/, '')}/embeddings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}) },
          body: JSON.stringify({ model: this.settings.model, input }),
          signal: controller.signal,
        });
      } catch {
        throw new EmbeddingEndpointError(controller.signal.aborted ? `no answer within ${this.timeoutMs / 1000} s` : 'it could not be reached');
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new EmbeddingEndpointError(`it answered HTTP ${response.status}`);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new EmbeddingEndpointError(controller.signal.aborted ? `no answer within ${this.timeoutMs / 1000} s` : 'it answered something that is not JSON');
      }
      return this.vectorsOf(body, input.length);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The `count` vectors of an answer, in input order, normalised; or why the answer does not do. */
  private vectorsOf(body: unknown, count: number): Float32Array[] {
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new EmbeddingEndpointError('it answered without a data list');
    if (data.length !== count) throw new EmbeddingEndpointError(`it answered ${data.length} vectors for ${count} texts`);
    const out: Float32Array[] = new Array(count);
    data.forEach((item: { index?: unknown; embedding?: unknown }, k) => {
      const index = typeof item?.index === 'number' ? item.index : k;
      const embedding = item?.embedding;
      if (!Number.isInteger(index) || index < 0 || index >= count || out[index]) throw new EmbeddingEndpointError('it answered vectors with bad indexes');
      if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new EmbeddingEndpointError('it answered a vector that is not a list of numbers');
      }
      out[index] = normalize(Float32Array.from(embedding as number[]));
    });
    const length = out[0]!.length;
    if (out.some((v) => v.length !== length)) throw new EmbeddingEndpointError('it answered vectors of different lengths');
    if (this.dimensions !== 0 && length !== this.dimensions) {
      throw new EmbeddingEndpointError(`its vectors changed length (${this.dimensions} before, ${length} now)`);
    }
    this.dimensions = length;
    return out;
  }
}
