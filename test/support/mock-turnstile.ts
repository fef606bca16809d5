import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SiteverifyCall {
  secret: string;
  response: string;
  remoteip: string;
  contentType: string;
}

/**
 * Stands in for Cloudflare's siteverify endpoint: a form-encoded POST of `secret` and `response`,
 * answered with `{"success": bool}`. A token is accepted when it is in `accepted` and the secret matches.
 */
export class MockTurnstile {
  readonly calls: SiteverifyCall[] = [];
  readonly accepted = new Set<string>();
  /** The secret the site is expected to send; when set, any other secret fails verification. */
  expectedSecret: string | null = null;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<MockTurnstile> {
    let mock: MockTurnstile | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        const call: SiteverifyCall = {
          secret: form.get('secret') ?? '',
          response: form.get('response') ?? '',
          remoteip: form.get('remoteip') ?? '',
          contentType: req.headers['content-type'] ?? '',
        };
        mock!.calls.push(call);
        const ok =
          req.method === 'POST' &&
          mock!.accepted.has(call.response) &&
          (mock!.expectedSecret === null || mock!.expectedSecret === call.secret);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            ok ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as AddressInfo).port;
    mock = new MockTurnstile(server, `http://127.0.0.1:${port}/turnstile/v0/siteverify`);
    return mock;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
