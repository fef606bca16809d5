/**
 * A local fetch proxy ("worker") in the shape of the Cloudflare Worker a gateway operator deploys:
 * `POST /worker` takes `{url, key, method, headers, body}`, refuses a wrong key with 401 and answers
 * with the target's response. It is also the target: every other path records the call it receives
 * (`via: 'direct'`, or `via: 'worker'` when the worker forwarded it) and answers `ok`, or a PNG for
 * paths ending in `.png`. Served over HTTPS with a self-signed certificate for 127.0.0.1 (`certFile`
 * is for OUTBOUND_CA_FILE), because user webhooks must be HTTPS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A 1x1 PNG. */
export const WORKER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export interface WorkerCall {
  url: string;
  key: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface TargetHit {
  via: 'worker' | 'direct';
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

export class MockFetchWorker {
  readonly calls: WorkerCall[] = [];
  readonly hits: TargetHit[] = [];

  private constructor(
    private readonly server: Server,
    private readonly dir: string,
    readonly url: string,
    readonly certFile: string,
    readonly key: string,
  ) {}

  /** The worker endpoint (the value for WorkerUrl). */
  get workerUrl(): string {
    return `${this.url}/worker`;
  }

  static async start(key = 'worker-valid-key'): Promise<MockFetchWorker> {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-worker-'));
    const certFile = join(dir, 'cert.pem');
    const keyFile = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1'].concat([
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ]),
      { stdio: 'ignore' },
    );
    const ref: { worker?: MockFetchWorker } = {};
    const server = createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (req, res) => {
      void ref.worker!.handle(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ref.worker = new MockFetchWorker(server, dir, url, certFile, key);
    return ref.worker;
  }

  /** Waits until `pred` holds for a recorded target hit (a notice is sent in the background). */
  async waitForHit(pred: (h: TargetHit) => boolean, ms = 5000): Promise<TargetHit> {
    const until = Date.now() + ms;
    for (;;) {
      const hit = this.hits.find(pred);
      if (hit) return hit;
      if (Date.now() > until) throw new Error('no matching call reached the target');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async close(): Promise<void> {
    await new Promise((r) => this.server.close(r));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    if (path === '/worker' && req.method === 'POST') {
      const call = JSON.parse(raw) as WorkerCall;
      this.calls.push(call);
      if (call.key !== this.key) {
        res.writeHead(401).end('invalid key');
        return;
      }
      const target = new URL(call.url);
      if (target.origin !== this.url) {
        res.writeHead(502).end('this mock forwards only to itself');
        return;
      }
      const body =
        call.body === undefined ? '' : typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
      this.answer(
        {
          via: 'worker',
          path: target.pathname + target.search,
          method: call.method,
          headers: call.headers ?? {},
          body,
        },
        res,
      );
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    this.answer({ via: 'direct', path, method: req.method ?? 'GET', headers, body: raw }, res);
  }

  private answer(hit: TargetHit, res: ServerResponse): void {
    this.hits.push(hit);
    if (hit.path.endsWith('.png')) res.writeHead(200, { 'content-type': 'image/png' }).end(WORKER_PNG);
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  }
}
