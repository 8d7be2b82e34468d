import { API_URL, apiData } from '../../providers/http-client.ts';

/** A member of an item's room, as the server describes it (docs/realtime.md, "Collaborative editing"). */
export interface CollabUser {
  connection: string;
  user: string;
  name: string | null;
  color: string;
}

/** A `type: "collab"` message from the server. */
export type CollabMessage = { type: 'collab'; action: string; room?: string; order?: number; uid?: string | number } & Record<string, any>;

type Listener = (message: CollabMessage) => void;

/** Waits between reconnection attempts (ms): quick at first, then every 10 s. */
const RETRY_MS = [500, 1_000, 2_000, 5_000, 10_000];

/**
 * The admin's one WebSocket to `/websocket` for collaborative editing, shared by every hook of the tab. The
 * session cookie signs it in on the upgrade (same origin). It opens while someone listens, answers the
 * server's pings, and reconnects after a drop: listeners re-send their joins from `onOpen`.
 */
class CollabSocket {
  #ws: WebSocket | null = null;
  #listeners = new Set<Listener>();
  #openers = new Set<() => void>();
  #attempt = 0;
  #retry: ReturnType<typeof setTimeout> | undefined;
  /** Whether the server serves /websocket (`/server/info`'s `websocket`, Directus's shape), asked once. */
  #served: Promise<boolean> | null = null;

  /** Calls `listener` with every collab message; `onOpen` runs on every (re)connection. Answers the removal. */
  listen(listener: Listener, onOpen: () => void): () => void {
    this.#listeners.add(listener);
    this.#openers.add(onOpen);
    if (this.#ws?.readyState === WebSocket.OPEN) onOpen();
    else this.#connect();
    return () => {
      this.#listeners.delete(listener);
      this.#openers.delete(onOpen);
      if (this.#listeners.size === 0) this.#disconnect();
    };
  }

  /** Sends when open; otherwise dropped, as `onOpen` sends the current state again. */
  send(message: Record<string, unknown>): void {
    if (this.#ws?.readyState === WebSocket.OPEN) this.#ws.send(JSON.stringify({ type: 'collab', ...message }));
  }

  #connect(): void {
    if (this.#ws || typeof window === 'undefined') return;
    clearTimeout(this.#retry);
    this.#served ??= apiData<{ websocket?: unknown }>('/server/info').then((info) => Boolean(info?.websocket), () => false);
    void this.#served.then((served) => {
      if (served && !this.#ws && this.#listeners.size > 0) this.#open();
    });
  }

  #open(): void {
    const ws = new WebSocket(`${API_URL.replace(/^http/, 'ws')}/websocket`);
    this.#ws = ws;
    ws.onopen = () => {
      this.#attempt = 0;
      for (const open of this.#openers) open();
    };
    ws.onmessage = (event) => {
      let message: CollabMessage;
      try {
        message = JSON.parse(String(event.data)) as CollabMessage;
      } catch {
        return;
      }
      if ((message as { type: string }).type === 'ping') return ws.send(JSON.stringify({ type: 'pong' }));
      if (message.type === 'collab') for (const listener of [...this.#listeners]) listener(message);
    };
    ws.onclose = () => {
      if (this.#ws !== ws) return;
      this.#ws = null;
      if (this.#listeners.size === 0) return;
      const wait = RETRY_MS[Math.min(this.#attempt, RETRY_MS.length - 1)];
      this.#attempt += 1;
      this.#retry = setTimeout(() => this.#connect(), wait);
    };
  }

  #disconnect(): void {
    clearTimeout(this.#retry);
    const ws = this.#ws;
    this.#ws = null;
    // Closing a socket still connecting makes the browser log an error: it closes once open instead.
    if (ws?.readyState === WebSocket.CONNECTING) ws.onopen = () => ws.close();
    else ws?.close();
  }
}

/** The tab's collab connection. */
export const collabSocket = new CollabSocket();
