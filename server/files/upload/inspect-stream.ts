import { Transform, type TransformCallback } from 'node:stream';
import { ContentTooLargeError, InvalidPayloadError, UnsupportedMediaTypeError } from '../../errors.ts';
import { isAllowedType, SNIFF_BYTES, sniffType, type SniffedType } from '../metadata/sniff-type.ts';

/** What an inspected stream carried. */
export interface InspectedContent extends SniffedType {
  size: number;
}

export interface InspectOptions {
  maxSize: number;
  allowedTypes: readonly string[];
  /** The type the client declared (used only for text; see sniffType). */
  declaredType?: string;
  /** Upload field name, for error messages. */
  field: string;
}

/**
 * A pass-through that holds back the first bytes until their type is sniffed and allowed, counts the
 * size and fails the stream past the limit. Nothing reaches storage before the type is known, and an
 * empty stream is refused. `result` resolves when the stream ends.
 */
export class InspectStream extends Transform {
  readonly #options: InspectOptions;
  #head: Buffer[] = [];
  #headLength = 0;
  #size = 0;
  #sniffed: SniffedType | null = null;
  /** Resolves when the stream has ended (only then are size and type final). */
  readonly result: Promise<InspectedContent>;
  /** Resolves as soon as the type is known and allowed; rejects when the stream fails before that. */
  readonly sniffed: Promise<SniffedType>;
  /** The error this stream failed with (too large, empty, type not allowed, or its source's error). */
  failure: Error | null = null;
  #resolve!: (content: InspectedContent) => void;
  #resolveSniffed!: (sniffed: SniffedType) => void;

  constructor(options: InspectOptions) {
    super();
    this.#options = options;
    this.result = new Promise((resolve) => (this.#resolve = resolve));
    this.sniffed = new Promise((resolve, reject) => {
      this.#resolveSniffed = resolve;
      this.once('error', (error) => {
        this.failure ??= error;
        reject(error);
      });
    });
    // Callers that never wait for the type must not see an unhandled rejection.
    this.sniffed.catch(() => undefined);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#size += chunk.length;
    if (this.#size > this.#options.maxSize) {
      callback(new ContentTooLargeError(`"${this.#options.field}" is larger than the upload limit of ${this.#options.maxSize} bytes.`, { field: this.#options.field, limit: this.#options.maxSize }));
      return;
    }
    if (this.#sniffed) {
      callback(null, chunk);
      return;
    }
    this.#head.push(chunk);
    this.#headLength += chunk.length;
    if (this.#headLength < SNIFF_BYTES) {
      callback();
      return;
    }
    this.#releaseHead(false).then(() => callback(), callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.#size === 0) {
      callback(new InvalidPayloadError(`"${this.#options.field}" is empty.`, { field: this.#options.field }));
      return;
    }
    const release = this.#sniffed ? Promise.resolve() : this.#releaseHead(true);
    release.then(() => {
      this.#resolve({ ...this.#sniffed!, size: this.#size });
      callback();
    }, callback);
  }

  async #releaseHead(complete: boolean): Promise<void> {
    const head = Buffer.concat(this.#head);
    this.#head = [];
    const sniffed = await sniffType(head, complete, this.#options.declaredType);
    if (!isAllowedType(sniffed.type, this.#options.allowedTypes)) {
      throw new UnsupportedMediaTypeError(`Files of type ${sniffed.type} are not allowed.`, { field: this.#options.field, type: sniffed.type });
    }
    this.#sniffed = sniffed;
    this.#resolveSniffed(sniffed);
    this.push(head);
  }
}
