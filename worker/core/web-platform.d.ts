/**
 * The web-platform globals the core uses beyond the ES libs: those every host has, the service worker,
 * the dedicated Worker and Node alike. worker/core/tsconfig.json typechecks the core with these and the
 * ES libs only, so neither a browser-only global (`caches`, `location`, `self`, the DOM) nor a Node-only
 * one (`process`, `Buffer`) compiles there. Each is declared with the members the core uses, as the DOM
 * lib spells them; worker/tsconfig.json checks the same files against the full WebWorker lib.
 * A member the core starts to use is added here.
 */

declare var console: {
  error(...data: unknown[]): void;
  warn(...data: unknown[]): void;
};

declare var performance: { now(): number };

declare var crypto: { randomUUID(): `${string}-${string}-${string}-${string}-${string}`; getRandomValues<T extends Uint8Array>(array: T): T };

declare function setTimeout(handler: (...args: never[]) => void, timeout?: number): number;
declare function clearTimeout(id: number | undefined): void;
declare function structuredClone<T>(value: T): T;
declare function atob(data: string): string;
declare function btoa(data: string): string;
declare function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;

interface DOMException extends Error {}
declare var DOMException: { prototype: DOMException; new (message?: string, name?: string): DOMException };

interface URLSearchParams {
  append(name: string, value: string): void;
  delete(name: string): void;
  get(name: string): string | null;
  getAll(name: string): string[];
  set(name: string, value: string): void;
}

interface URL {
  hash: string;
  hostname: string;
  href: string;
  readonly origin: string;
  password: string;
  username: string;
  pathname: string;
  protocol: string;
  search: string;
  readonly searchParams: URLSearchParams;
}
declare var URL: { prototype: URL; new (url: string | URL, base?: string | URL): URL; canParse(url: string | URL, base?: string | URL): boolean };

interface TextEncoder {
  encode(input?: string): Uint8Array<ArrayBuffer>;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };

interface TextDecoder {
  decode(input?: ArrayBuffer | ArrayBufferView, options?: { stream?: boolean }): string;
}
declare var TextDecoder: { prototype: TextDecoder; new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder };

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
declare var AbortSignal: { prototype: AbortSignal };

interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}
declare var AbortController: { prototype: AbortController; new (): AbortController };

interface ReadableStreamDefaultReader<R> {
  read(): Promise<{ done: false; value: R } | { done: true; value?: undefined }>;
  cancel(reason?: unknown): Promise<void>;
}
interface ReadableStreamDefaultController<R> {
  close(): void;
  enqueue(chunk: R): void;
  error(reason?: unknown): void;
}
interface UnderlyingDefaultSource<R> {
  start?(controller: ReadableStreamDefaultController<R>): void | Promise<void>;
  pull?(controller: ReadableStreamDefaultController<R>): void | Promise<void>;
  cancel?(reason?: unknown): void | Promise<void>;
}
interface WritableStreamDefaultWriter<W> {
  write(chunk?: W): Promise<void>;
}
interface WritableStream<W> {
  getWriter(): WritableStreamDefaultWriter<W>;
}
interface ReadableStream<R = unknown> {
  cancel(reason?: unknown): Promise<void>;
  getReader(): ReadableStreamDefaultReader<R>;
  pipeThrough<T>(transform: { writable: WritableStream<R>; readable: ReadableStream<T> }): ReadableStream<T>;
}
declare var ReadableStream: {
  prototype: ReadableStream;
  new <R = unknown>(source?: UnderlyingDefaultSource<R>, strategy?: { highWaterMark?: number }): ReadableStream<R>;
};

interface TextDecoderStream {
  readonly writable: WritableStream<ArrayBuffer | ArrayBufferView>;
  readonly readable: ReadableStream<string>;
}
declare var TextDecoderStream: { prototype: TextDecoderStream; new (label?: string): TextDecoderStream };

interface Blob {
  readonly size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}
type BlobPart = ArrayBuffer | ArrayBufferView<ArrayBuffer> | Blob | string;
declare var Blob: { prototype: Blob; new (parts?: BlobPart[], options?: { type?: string }): Blob };

interface Headers {
  get(name: string): string | null;
}
type HeadersInit = [string, string][] | Record<string, string> | Headers;
declare var Headers: { prototype: Headers; new (init?: HeadersInit): Headers };

type BodyInit = ReadableStream<Uint8Array> | Blob | ArrayBuffer | ArrayBufferView<ArrayBuffer> | URLSearchParams | string;

interface Body {
  readonly body: ReadableStream<Uint8Array<ArrayBuffer>> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
  json(): Promise<unknown>;
  text(): Promise<string>;
}

interface RequestInit {
  body?: BodyInit | null;
  headers?: HeadersInit;
  method?: string;
  signal?: AbortSignal | null;
}
interface Request extends Body {
  readonly headers: Headers;
  readonly method: string;
  readonly signal: AbortSignal;
}
declare var Request: { prototype: Request; new (input: string | URL | Request, init?: RequestInit): Request };

interface ResponseInit {
  headers?: HeadersInit;
  status?: number;
}
interface Response extends Body {
  readonly headers: Headers;
  readonly ok: boolean;
  readonly status: number;
}
declare var Response: { prototype: Response; new (body?: BodyInit | null, init?: ResponseInit): Response };
