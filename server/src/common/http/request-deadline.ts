import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Every request must arrive whole (headers and body) within a deadline: a client that trickles its
 * body cannot hold a socket, a body buffer and a request slot forever. One sweep a second looks at the
 * requests still being received; a late one is answered 408 and its connection closed.
 * (Node's own requestTimeout is checked only every 30 s, and not on this server's hijacked paths.)
 */
export class RequestDeadline {
  private readonly open = new Map<IncomingMessage, { res: ServerResponse; at: number }>();
  private timer: NodeJS.Timeout | null = null;
  /**
   * Forgets a request once its body has arrived. Left to the sweep, every request of the last second
   * (and all it reaches through its listeners: the response, the call's context, its buffers) would
   * outlive the young generation's collections and be promoted: under load, a second of traffic at a
   * time. One listener shared by all requests (`this` is the request whose body ended).
   */
  private readonly forget: (this: IncomingMessage) => void;

  constructor(private readonly limitMs: number) {
    const open = this.open;
    this.forget = function (this: IncomingMessage) {
      open.delete(this);
    };
  }

  track(req: IncomingMessage, res: ServerResponse): void {
    if (this.limitMs <= 0 || req.complete) return;
    this.open.set(req, { res, at: Date.now() });
    req.on('end', this.forget);
    this.timer ??= setInterval(() => this.sweep(), Math.min(1000, this.limitMs)).unref();
  }

  /** Requests still being received (for tests). */
  get pending(): number {
    return this.open.size;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.open.clear();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [req, { res, at }] of this.open) {
      if (req.complete || res.destroyed || res.writableEnded) {
        this.open.delete(req);
        continue;
      }
      if (now - at < this.limitMs) continue;
      this.open.delete(req);
      if (res.headersSent) {
        req.socket.destroy();
        continue;
      }
      const relay = !(req.url ?? '').startsWith('/api/');
      const message = 'The request was not received in time';
      const body = JSON.stringify(
        relay
          ? { error: { message, type: 'invalid_request_error', param: null, code: 'request_timeout' } }
          : { success: false, message, data: null },
      );
      res.writeHead(408, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      });
      res.end(body, () => req.socket.destroy());
    }
    if (!this.open.size && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
