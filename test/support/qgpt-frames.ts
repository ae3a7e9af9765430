/** `/qgpt/stream`'s NDJSON answer (POST), read frame by frame as it arrives. */
import { QGPTStreamOutputFromJSON } from '@pieces.app/pieces-os-client';
import { expect } from 'vitest';
import { QGPTStreamOutputSchema } from '../../worker/core/model/schemas.ts';

export type Answers = { answers: { iterable: { text: string; score: number }[] } };
/** A narrow view of QGPTStreamOutput (the inferred wire type is too deep for the type checker here). */
export interface QGPTStreamOutput {
  conversation: string;
  request?: string;
  status?: string;
  statusCode?: number | null;
  errorMessage?: string;
  question?: Answers;
  relevance?: { relevant: { iterable: { asset?: { id: string } }[] }; answer?: Answers };
}

/** Frames of one input, read line by line as the worker sends them. */
export class FrameReader {
  readonly frames: QGPTStreamOutput[] = [];
  readonly #reader: ReadableStreamDefaultReader<string>;
  #pending = '';

  constructor(body: NonNullable<Response['body']>) {
    this.#reader = body.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next frame, checked against the contract and parsed by the SDK; undefined at the end. */
  async next(): Promise<QGPTStreamOutput | undefined> {
    for (;;) {
      const newline = this.#pending.indexOf('\n');
      if (newline >= 0) {
        const line = this.#pending.slice(0, newline);
        this.#pending = this.#pending.slice(newline + 1);
        const json = JSON.parse(line);
        expect(QGPTStreamOutputSchema.safeParse(json).success, line).toBe(true);
        expect(QGPTStreamOutputFromJSON(json).conversation).toBe(json.conversation);
        this.frames.push(json);
        return json;
      }
      const { done, value } = await this.#reader.read();
      if (done) {
        expect(this.#pending).toBe('');
        return undefined;
      }
      this.#pending += value;
    }
  }

  /** Every remaining frame. */
  async rest(): Promise<QGPTStreamOutput[]> {
    while (await this.next());
    return this.frames;
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

