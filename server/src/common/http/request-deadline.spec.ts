import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { RequestDeadline } from './request-deadline';

/** A real HTTP server whose requests the deadline watches; each answers 200 once its body has arrived. */
async function serve(deadline: RequestDeadline): Promise<{ server: Server; url: string; port: number }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    deadline.track(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (res.headersSent) return;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(String(Buffer.concat(chunks).length));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/`, port };
}

/** Writes raw bytes on a new connection and resolves with everything the server sent until it closed. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('RequestDeadline', () => {
  let deadline: RequestDeadline;
  let server: Server;
  let url: string;
  let port: number;

  beforeEach(async () => {
    deadline = new RequestDeadline(400);
    ({ server, url, port } = await serve(deadline));
  });

  afterEach(async () => {
    deadline.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('forgets a request as soon as its body has arrived, not at the next sweep', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(url, { method: 'POST', body: 'x'.repeat(i + 1) }).then((r) => r.text()),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 50 }, (_, i) => String(i + 1)));
    // Nothing is still held: before, every request stayed in the deadline's map (with its response and
    // all it reached) until the sweep, under load a second of traffic at a time.
    expect(deadline.pending).toBe(0);
  });

  it('still answers 408 to a body that does not arrive in time and closes the connection', async () => {
    const started = Date.now();
    const answer = await raw(
      port,
      'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"mo',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('"code":"request_timeout"');
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(deadline.pending).toBe(0);
  });

  it('keeps watching a request whose body is still on its way', async () => {
    // A deadline no loaded machine reaches here, so only the body's arrival can end the watch.
    const patient = new RequestDeadline(10_000);
    const other = await serve(patient);
    const socket = connect(other.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(patient.pending).toBe(1);
    socket.write('defghij');
    const answer = await new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())));
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(patient.pending).toBe(0);
    socket.destroy();
    patient.stop();
    other.server.closeAllConnections();
    await new Promise((resolve) => other.server.close(resolve));
  });
});
