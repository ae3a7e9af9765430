/**
 * The embedder a ServiceContext uses: the embeddings endpoint the user configured (endpoint.ts, settings in
 * endpoint-settings.ts) while it works, else the host's built-in embedder (hashing or transformers).
 *
 * - The settings are read again at most every SETTINGS_TTL_MS (another instance may change them), and at
 *   once after this instance's own settings routes change them (`reset`).
 * - When the endpoint fails (down, HTTP error, bad answer, timeout), the call is answered by the built-in
 *   embedder instead and the endpoint is left alone for `retryAfterMs`; `describe()` says so. Vectors are
 *   never mixed: `id` is the active embedder's, `embedTagged` says whose vectors it answered, and the
 *   library's vectors (qgpt/vectors/snippet-vectors.ts) are redone when the active id changes.
 */
import { describeEmbedder, type Embedder, type EmbedderInfo, type TaggedVectors } from './embedder.ts';
import { EmbeddingEndpointError, EndpointEmbedder, endpointEmbedderId, type EndpointSettings } from './endpoint.ts';

const SETTINGS_TTL_MS = 2_000;
export const RETRY_AFTER_MS = 5 * 60_000;

export interface ConfiguredOptions {
  /** The endpoint's settings when one is configured and enabled. */
  readSettings: () => Promise<EndpointSettings | undefined>;
  fetch: typeof fetch;
  /** Per request to the endpoint. Default EMBEDDING_TIMEOUT_MS. */
  timeoutMs?: number;
  /** How long a failed endpoint is left alone. Default RETRY_AFTER_MS. */
  retryAfterMs?: number;
  now?: () => number;
}

export class ConfiguredEmbedder implements Embedder {
  private endpoint: EndpointEmbedder | undefined;
  private failure: { reason: string; at: number } | undefined;
  private checkedAt = -Infinity;
  private refreshing: Promise<void> | undefined;

  constructor(
    readonly builtIn: Embedder,
    private readonly options: ConfiguredOptions,
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** The endpoint while it is configured and not failing; else the built-in embedder. */
  private get active(): Embedder {
    return this.endpoint && !this.failure ? this.endpoint : this.builtIn;
  }

  get id(): string {
    return this.active.id;
  }

  get dimensions(): number {
    return this.active.dimensions;
  }

  async ready(): Promise<void> {
    await this.refresh();
    await this.builtIn.ready?.();
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return (await this.embedTagged(texts)).vectors;
  }

  async embedTagged(texts: string[]): Promise<TaggedVectors> {
    await this.refresh();
    const endpoint = this.failure ? undefined : this.endpoint;
    if (endpoint) {
      try {
        return { embedder: endpoint.id, vectors: await endpoint.embed(texts) };
      } catch (error) {
        if (!(error instanceof EmbeddingEndpointError)) throw error;
        // Only if the settings did not change meanwhile: a new endpoint gets its own chance.
        if (this.endpoint === endpoint) this.failure = { reason: error.reason, at: this.now() };
        console.warn(`embeddings: ${endpoint.settings.url} failed (${error.reason}); using the built-in embedder`);
      }
    }
    const vectors = await this.builtIn.embed(texts);
    await this.builtIn.ready?.();
    return { embedder: this.builtIn.id, vectors };
  }

  /** Reads the settings again on next use and forgets a failure (after they were saved or tested). */
  reset(): void {
    this.checkedAt = -Infinity;
    this.failure = undefined;
  }

  describe(): EmbedderInfo {
    const endpoint = this.endpoint;
    if (!endpoint) return describeEmbedder(this.builtIn);
    const where = { url: endpoint.settings.url, model: endpoint.settings.model };
    if (!this.failure) return { ...endpoint.describe(), endpoint: { ...where, status: 'active' } };
    const retryAt = new Date(this.failure.at + (this.options.retryAfterMs ?? RETRY_AFTER_MS)).toISOString();
    const builtIn = describeEmbedder(this.builtIn);
    return {
      ...builtIn,
      reason: `the embeddings endpoint ${where.model} at ${where.url} failed (${this.failure.reason}), so the built-in embedder answers until ${retryAt}${builtIn.reason ? `; ${builtIn.reason}` : ''}`,
      endpoint: { ...where, status: 'failed', error: this.failure.reason, retryAt },
    };
  }

  private async refresh(): Promise<void> {
    if (this.failure && this.now() - this.failure.at >= (this.options.retryAfterMs ?? RETRY_AFTER_MS)) this.failure = undefined;
    if (this.now() - this.checkedAt < SETTINGS_TTL_MS) return;
    this.refreshing ??= this.options
      .readSettings()
      .then((settings) => {
        this.checkedAt = this.now();
        if (!settings) {
          this.endpoint = undefined;
          this.failure = undefined;
        } else if (!this.endpoint || !sameSettings(this.endpoint.settings, settings)) {
          this.endpoint = new EndpointEmbedder(settings, this.options.fetch, this.options.timeoutMs);
          this.failure = undefined;
        }
      })
      .finally(() => (this.refreshing = undefined));
    await this.refreshing;
  }
}

function sameSettings(a: EndpointSettings, b: EndpointSettings): boolean {
  return endpointEmbedderId(a) === endpointEmbedderId(b) && a.url === b.url && a.apiKey === b.apiKey;
}

/** After the endpoint's settings were saved or it answered a test: read them again, forget a failure. */
export function resetEmbedder(embedder: Embedder): void {
  if (embedder instanceof ConfiguredEmbedder) embedder.reset();
}
