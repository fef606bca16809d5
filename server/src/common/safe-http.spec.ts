import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import {
  anyAddress,
  BlockedAddressError,
  guardedLookup,
  publicOnly,
  resolver,
  SafeHttpClient,
} from './safe-http';

describe('publicOnly', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    'fe80::1',
    'fc00::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'nonsense',
  ])('refuses %s', (ip) => expect(publicOnly(ip)).toBe(false));

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (ip) =>
    expect(publicOnly(ip)).toBe(true),
  );
});

describe('SafeHttpClient', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/to-other-loopback') {
        res.writeHead(302, { location: `http://127.0.0.2:${port}/ok` }).end();
      } else if (req.url === '/to-self') {
        res.writeHead(302, { location: '/ok' }).end();
      } else if (req.url === '/big') {
        res.end('x'.repeat(5000));
      } else {
        res.end('fine');
      }
    });
    await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('refuses loopback by literal address and by name', async () => {
    const client = new SafeHttpClient();
    await expect(client.fetch(`http://127.0.0.1:${port}/ok`)).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(client.fetch(`http://[::1]:${port}/ok`)).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(client.fetch(`http://localhost:${port}/ok`)).rejects.toThrow(/non-public address/);
    await client.close();
  });

  it('refuses other schemes', async () => {
    const client = new SafeHttpClient(anyAddress);
    await expect(client.fetch('file:///etc/passwd')).rejects.toThrow(/unsupported scheme/);
    await client.close();
  });

  it('re-checks every redirect hop', async () => {
    // Only 127.0.0.1 is allowed here: the redirect to 127.0.0.2 must be refused.
    const client = new SafeHttpClient((ip) => ip === '127.0.0.1');
    await expect(client.fetch(`http://127.0.0.1:${port}/to-self`)).resolves.toMatchObject({
      status: 200,
      body: 'fine',
    });
    await expect(client.fetch(`http://127.0.0.1:${port}/to-other-loopback`)).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
    await client.close();
  });

  it('caps the response size', async () => {
    const client = new SafeHttpClient(anyAddress);
    await expect(client.fetch(`http://127.0.0.1:${port}/big`, { maxBytes: 1000 })).rejects.toThrow(
      /larger than/,
    );
    await client.close();
  });

  it('pins the address it checked: a resolver that answers public, then loopback, cannot rebind', () => {
    const real = resolver.lookup;
    let calls = 0;
    resolver.lookup = ((
      _h: string,
      _o: unknown,
      cb: (e: null, a: Array<{ address: string; family: number }>) => void,
    ) =>
      cb(null, [
        { address: ++calls === 1 ? '1.1.1.1' : '127.0.0.1', family: 4 },
      ])) as unknown as typeof resolver.lookup;
    try {
      const lookup = guardedLookup(publicOnly);
      const got: Array<[unknown, unknown]> = [];
      lookup('rebind.test', { family: 0 }, (err, address) => got.push([err, address]));
      lookup('rebind.test', { family: 0 }, (err, address) => got.push([err, address]));
      // The socket is handed the checked public address; the second answer (loopback) is refused.
      expect(got[0]).toEqual([null, '1.1.1.1']);
      expect(got[1][0]).toBeInstanceOf(BlockedAddressError);
      expect(calls).toBe(2);
    } finally {
      resolver.lookup = real;
    }
  });
});
