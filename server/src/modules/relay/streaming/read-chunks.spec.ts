import { PassThrough, Readable } from 'node:stream';
import { readChunks } from './read-chunks';

const parts = ['data: a\n\n', 'data: b\n\n', 'data: c\n\n'];
const none = () => undefined;
const turn = () => new Promise((r) => setImmediate(r));

describe('readChunks', () => {
  it('hands every chunk over in order and resolves at the end', async () => {
    const body = new PassThrough();
    const seen: string[] = [];
    const done = readChunks(body, (c) => void seen.push(c.toString()), none);
    for (const p of parts) {
      body.write(p);
      await turn();
    }
    body.end();
    await done;
    expect(seen.join('')).toBe(parts.join(''));
  });

  it('runs afterRead once for the chunks of one read, once per read', async () => {
    // One upstream read: undici pushes each HTTP chunk of it, one after another, synchronously.
    const body = new Readable({ read() {} });
    const log: string[] = [];
    const done = readChunks(
      body,
      (c) => void log.push(c.toString()),
      () => void log.push('|'),
    );
    await turn();
    for (const p of parts) body.push(p);
    await turn();
    body.push('data: d\n\n');
    await turn();
    body.push(null);
    await done;
    expect(log).toEqual([...parts, '|', 'data: d\n\n', '|']);
  });

  it('delivers nothing more while the promise afterRead returned is pending (backpressure)', async () => {
    const body = new PassThrough();
    const seen: string[] = [];
    let release!: () => void;
    let reads = 0;
    const done = readChunks(
      body,
      (c) => void seen.push(c.toString()),
      () => (++reads === 1 ? new Promise<void>((r) => (release = r)) : undefined),
    );
    body.write(parts[0]);
    await turn();
    body.write(parts[1]);
    body.write(parts[2]);
    body.end();
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([parts[0]]);
    expect(body.isPaused()).toBe(true);
    release();
    await done;
    expect(seen.join('')).toBe(parts.join(''));
  });

  it('rejects with what a chunk threw and destroys the body', async () => {
    const body = new PassThrough();
    const boom = new Error('boom');
    const done = readChunks(
      body,
      () => {
        throw boom;
      },
      none,
    );
    body.write(parts[0]);
    await expect(done).rejects.toBe(boom);
    expect(body.destroyed).toBe(true);
  });

  it('rejects with the error a waited-on promise rejected with', async () => {
    const body = new PassThrough();
    const boom = new Error('client gone');
    const done = readChunks(body, none, () => Promise.reject(boom));
    body.write(parts[0]);
    await expect(done).rejects.toBe(boom);
    expect(body.destroyed).toBe(true);
  });

  it("rejects with the body's error (an idle deadline destroying it)", async () => {
    const body = new PassThrough();
    const seen: string[] = [];
    const done = readChunks(body, (c) => void seen.push(c.toString()), none);
    body.write(parts[0]);
    await turn();
    body.destroy(new Error('streaming timeout'));
    await expect(done).rejects.toThrow('streaming timeout');
    expect(seen).toEqual([parts[0]]);
  });

  it('rejects when the body closes before its end', async () => {
    const body = new PassThrough();
    const done = readChunks(body, none, none);
    body.write(parts[0]);
    body.destroy();
    await expect(done).rejects.toThrow('Premature close');
  });

  it('an error emitted while the body is destroyed after a failure finds a listener', async () => {
    // A body whose destroy reports an error of its own (undici's does when cut before its end).
    const body = new Readable({
      read() {},
      destroy(_err, cb) {
        cb(new Error('aborted'));
      },
    });
    const done = readChunks(
      body,
      () => {
        throw new Error('first');
      },
      none,
    );
    body.push('x');
    await expect(done).rejects.toThrow('first');
    await turn();
    expect(body.destroyed).toBe(true);
  });

  it('a body already over: ended resolves, destroyed rejects', async () => {
    const ended = Readable.from([Buffer.from('x')]);
    ended.resume();
    await new Promise((r) => ended.on('end', r));
    await expect(readChunks(ended, none, none)).resolves.toBeUndefined();
    const destroyed = new PassThrough();
    destroyed.on('error', () => undefined); // its error went to whoever held it before
    destroyed.destroy(new Error('gone'));
    await turn();
    await expect(readChunks(destroyed, none, none)).rejects.toThrow('gone');
  });
});
