import { randomUUID } from 'node:crypto';
import type { Accountability } from '../auth/accountability.ts';
import { TesseraError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { CollabHub, Participant } from './collab-hub.ts';
import { parseCollabRequest } from './collab-messages.ts';

type Message = Record<string, unknown>;

/**
 * One socket's part in collaborative editing: its `type: "collab"` messages (Directus's shapes: every
 * server message carries `room` and a per-connection `order`), and leaving every room when it closes, which
 * releases its fields and tells the other members.
 */
export class CollabSession {
  readonly #hub: CollabHub;
  readonly #logger: Logger;
  readonly #participant: Participant;
  #order = 0;
  #closed = false;

  constructor(hub: CollabHub, logger: Logger, accountability: () => Accountability, send: (message: Message) => void) {
    this.#hub = hub;
    this.#logger = logger;
    this.#participant = {
      connection: randomUUID(),
      accountability,
      send: (message) => send({ type: 'collab', ...message, order: this.#order++ }),
      rooms: new Map(),
      watches: new Set(),
    };
  }

  async handle(message: Message, uid: string | number | undefined): Promise<void> {
    const trigger = typeof message.action === 'string' ? message.action : undefined;
    try {
      const request = parseCollabRequest(message);
      const participant = this.#participant;
      if (request.action === 'join') return await this.#hub.join(participant, request.collection, request.item, request.version, request.color);
      if (request.action === 'leave') return await this.#hub.leave(participant, request.room);
      if (request.action === 'focus') return await this.#hub.focus(participant, request.room, request.field);
      if (request.action === 'watch') return await this.#hub.watch(participant, request.collection, uid);
      return this.#hub.unwatch(participant, request.collection);
    } catch (error) {
      const known = error instanceof TesseraError && error.expose;
      if (!known) this.#logger.error({ err: error }, 'collab message failed');
      // Directus's collab error shape; `uid` echoed as for every other message.
      this.#participant.send({
        action: 'error',
        ...(trigger ? { trigger } : {}),
        code: known ? error.code : 'INTERNAL_SERVER_ERROR',
        message: known ? error.message : 'An unexpected error occurred.',
        ...(uid !== undefined ? { uid } : {}),
      });
    } finally {
      // The socket closed while this message was handled (a join half done): what it joined is left too.
      if (this.#closed) await this.close();
    }
  }

  /** The socket closed (or signed in as someone else): leave every room, stop watching. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#hub.unwatch(this.#participant, null);
    await this.#hub.leave(this.#participant, null).catch((error: unknown) => this.#logger.warn({ err: error }, 'collab leave on close failed'));
  }
}
