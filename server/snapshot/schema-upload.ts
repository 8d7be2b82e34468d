import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { CORE_SCHEMA, load } from 'js-yaml';
import { ContentTooLargeError, InvalidPayloadError } from '../errors.ts';
import { isMultipart, readMultipart } from '../files/upload/read-multipart.ts';

async function readText(stream: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.destroy();
      throw new ContentTooLargeError(`The file is larger than ${maxBytes} bytes (MAX_PAYLOAD_SIZE).`, { field: 'file' });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** JSON, or else YAML (a snapshot file as `GET /schema/snapshot?export=yaml` writes it). */
function parseDocument(text: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch {
      // Not JSON after all: YAML's flow style starts the same way.
    }
  }
  try {
    return load(text, { schema: CORE_SCHEMA });
  } catch (error) {
    throw new InvalidPayloadError(`The file is neither JSON nor YAML: ${(error as Error).message.split('\n')[0]}`, { field: 'file' });
  }
}

/**
 * The body of `POST /schema/diff` or `/schema/apply`: the parsed JSON body, or, as Directus also takes it,
 * a multipart/form-data body with one file part holding the document as YAML or JSON.
 */
export async function readSchemaBody(req: IncomingMessage, parsedBody: unknown, maxBytes: number): Promise<unknown> {
  if (!isMultipart(req)) return parsedBody;
  let text: string | undefined;
  await readMultipart(req, {
    maxFiles: 1,
    maxFieldSize: 1024,
    onFile: async (part) => {
      text = await readText(part.stream, maxBytes);
    },
  });
  if (text === undefined) throw new InvalidPayloadError('No file was included in the body.', { field: 'file' });
  return parseDocument(text);
}
