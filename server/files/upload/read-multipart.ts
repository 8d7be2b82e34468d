import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { InvalidPayloadError, UnsupportedMediaTypeError } from '../../errors.ts';

/** One file part of a multipart body. */
export interface FilePart {
  /** The form field name. */
  field: string;
  filename: string;
  declaredType: string;
  stream: Readable;
  /** Text fields that came before this part (later fields override earlier ones). */
  fields: Record<string, string>;
}

export interface MultipartOptions {
  maxFiles: number;
  /** Largest text field, in bytes. */
  maxFieldSize: number;
  /** Handles one file part; must consume or destroy `part.stream`. Parts are handled one after the other. */
  onFile: (part: FilePart) => Promise<void>;
}

/** True for a multipart/form-data request. */
export function isMultipart(req: IncomingMessage): boolean {
  return /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '');
}

/**
 * Streams a multipart/form-data body: text fields are collected, and each file part is handed to
 * `onFile` with the fields seen before it, without buffering the file. Rejects on the first failure
 * (the rest of the body is then discarded). Resolves with the fields and the number of files.
 */
export function readMultipart(req: IncomingMessage, options: MultipartOptions): Promise<{ fields: Record<string, string>; files: number }> {
  if (!isMultipart(req)) return Promise.reject(new UnsupportedMediaTypeError('Send files as multipart/form-data.'));
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: options.maxFiles, fieldSize: options.maxFieldSize, fields: 100, parts: options.maxFiles + 100 } });
    } catch (error) {
      reject(new InvalidPayloadError(`Invalid multipart body: ${(error as Error).message}.`));
      return;
    }
    const fields: Record<string, string> = Object.create(null); // a part named `__proto__` stays a field
    let files = 0;
    let failed = false;
    let queue = Promise.resolve();
    /** File parts not yet read to their end: a failure fails them too, so no consumer waits forever on one. */
    const open = new Set<Readable>();

    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      // Discard the rest of the body so the client can read the answer.
      req.resume();
      for (const stream of open) stream.destroy(error instanceof Error ? error : new InvalidPayloadError(String(error)));
      open.clear();
      // Answer once the part being handled has given up (its stored content removed), not before.
      const settled = queue;
      void settled.then(() => reject(error));
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new InvalidPayloadError(`Field "${name}" is longer than ${options.maxFieldSize} bytes.`, { field: name }));
      else fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      if (failed) {
        stream.resume();
        return;
      }
      files++;
      open.add(stream);
      // The consumer listens too; this one keeps a part failed by `fail` from being an unhandled error.
      stream.on('error', () => undefined);
      stream.once('end', () => open.delete(stream));
      stream.once('close', () => open.delete(stream));
      const part: FilePart = { field, filename: info.filename ?? '', declaredType: info.mimeType, stream, fields: { ...fields } };
      // Parts arrive in order; each is handled as it streams, and the next waits for the parser anyway.
      queue = queue.then(() => (failed ? void stream.resume() : options.onFile(part))).catch((error) => {
        stream.resume();
        fail(error);
      });
    });
    parser.on('filesLimit', () => fail(new InvalidPayloadError(`At most ${options.maxFiles} files can be uploaded at once.`, { field: 'file' })));
    parser.on('fieldsLimit', () => fail(new InvalidPayloadError('Too many fields.')));
    parser.on('partsLimit', () => fail(new InvalidPayloadError('Too many parts.')));
    parser.on('error', (error) => fail(new InvalidPayloadError(`Invalid multipart body: ${(error as Error).message}.`)));
    parser.on('close', () => {
      queue.then(() => {
        if (!failed) resolve({ fields, files });
      });
    });
    req.once('close', () => {
      if (!req.complete) fail(new InvalidPayloadError('The upload was aborted.'));
    });
    req.pipe(parser);
  });
}
