/**
 * The Responses API over a WebSocket (`GET /v1/responses` upgraded, the transport Codex can use):
 * the client sends `response.create` messages (the body of an HTTP Responses request, without
 * `stream` and `background`) and receives the events of a streamed answer, one JSON message each.
 *
 * Each `response.create` is served as a streamed `POST /v1/responses` on this same server, with the
 * socket's key and session headers: admission, channel choice (and affinity), conversion to Anthropic,
 * Gemini or any chat channel, billing and logs are those of the HTTP relay. One response at a time per
 * socket, in the order asked. A refused request becomes an `error` event; the socket stays open.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createParser } from 'eventsource-parser';
import { request } from 'undici';
import WebSocket, { WebSocketServer } from 'ws';
import { errorBody, RelayError, toRelayError } from '../errors';
import { httpRefusal, MAX_BUFFERED_BYTES, sessionRequestId } from './realtime-protocol';

export const RESPONSES_SOCKET_PATH = '/v1/responses';

/** Client headers carried to each relayed request (the key, the session, the client's identity). */
const CARRIED = [
  'authorization',
  'x-api-key',
  'openai-organization',
  'openai-project',
  'session_id',
  'x-session-id',
  'originator',
  'user-agent',
  'accept-language',
];

export class ResponsesSocket {
  private readonly wss = new WebSocketServer({
    noServer: true,
    clientTracking: true,
    perMessageDeflate: false,
    maxPayload: MAX_BUFFERED_BYTES,
  });

  constructor(
    /** Checks the key of an upgrade (401/403 before any upgrade); returns the client's address. */
    private readonly authorize: (req: IncomingMessage) => Promise<string>,
    private readonly server: () => Server | null,
  ) {}

  /** Serves one upgrade of RESPONSES_SOCKET_PATH. */
  async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    let ip: string;
    try {
      ip = await this.authorize(req);
    } catch (err) {
      const e = toRelayError(err);
      if (!socket.destroyed) {
        socket.on('error', () => undefined);
        socket.once('finish', () => socket.destroy());
        socket.end(httpRefusal(e.status, e.messageIn('en'), e.code, sessionRequestId(new Date())));
      }
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (client) => this.serve(client, req, ip));
  }

  close(): void {
    for (const c of this.wss.clients) c.close(1001, 'server shutting down');
    this.wss.close();
  }

  private serve(client: WebSocket, req: IncomingMessage, ip: string): void {
    // The client's address as the upgrade resolved it (not forwarding headers the client sent): the
    // relay honours it when loopback is a trusted proxy; otherwise the call counts as 127.0.0.1's.
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'x-forwarded-for': ip,
    };
    for (const h of CARRIED) {
      const v = req.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    if (!headers.authorization && !headers['x-api-key']) {
      const key = new URL(req.url ?? '/', 'http://x').searchParams.get('key');
      if (key) headers.authorization = `Bearer ${key}`;
    }
    let queue = Promise.resolve();
    const abort = new AbortController();
    client.on('close', () => abort.abort());
    client.on('error', () => undefined);
    client.on('message', (data, isBinary) => {
      const text = isBinary ? null : Buffer.isBuffer(data) ? data.toString('utf8') : null;
      queue = queue.then(() => this.respond(client, headers, text, abort.signal)).catch(() => undefined);
    });
  }

  private async respond(
    client: WebSocket,
    headers: Record<string, string>,
    text: string | null,
    signal: AbortSignal,
  ): Promise<void> {
    const send = (event: unknown) => {
      if (client.readyState === WebSocket.OPEN)
        client.send(typeof event === 'string' ? event : JSON.stringify(event));
    };
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text ?? '') as Record<string, unknown>;
    } catch {
      return send(socketError(400, 'messages must be JSON text'));
    }
    if (!message || typeof message !== 'object' || message.type !== 'response.create')
      return send(
        socketError(
          400,
          `unsupported message type ${JSON.stringify(message?.type ?? null)}; send response.create`,
        ),
      );
    const body: Record<string, unknown> = { ...message, stream: true };
    delete body.type;
    delete body.background;
    const address = this.server()?.address() as AddressInfo | null;
    if (!address) return send(socketError(503, 'the server is not listening'));
    try {
      const res = await request(`http://127.0.0.1:${address.port}${RESPONSES_SOCKET_PATH}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal,
      });
      if (res.statusCode >= 400 || !String(res.headers['content-type'] ?? '').includes('event-stream')) {
        const answer = await res.body.text();
        let error: unknown;
        try {
          error = (JSON.parse(answer) as { error?: unknown }).error;
        } catch {
          error = undefined;
        }
        return send({
          type: 'error',
          status: res.statusCode,
          error: error ?? (socketError(res.statusCode, answer.slice(0, 500)) as { error: unknown }).error,
        });
      }
      const parser = createParser({ onEvent: (e) => e.data !== '[DONE]' && send(e.data) });
      const decoder = new TextDecoder();
      for await (const chunk of res.body) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      parser.feed(decoder.decode());
    } catch (err) {
      if (!signal.aborted)
        send(socketError(502, err instanceof RelayError ? err.message : 'the response stream broke'));
    }
  }
}

function socketError(status: number, message: string): Record<string, unknown> {
  return { type: 'error', status, ...(errorBody('openai', status, message) as Record<string, unknown>) };
}
