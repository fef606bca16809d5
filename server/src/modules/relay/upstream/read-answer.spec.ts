import { PassThrough, Readable } from 'node:stream';
import { errors as undiciErrors } from 'undici';
import { RelayError } from '../errors';
import { readAnswer, utf8Text, type UpstreamResponse } from './upstream-client';

const answer = (body: Readable): UpstreamResponse =>
  ({ statusCode: 200, headers: {}, body }) as unknown as UpstreamResponse;

describe('readAnswer', () => {
  it('joins the chunks into text, a character split between two reads whole', async () => {
    const bytes = Buffer.from('{"text":"héllo 你好 🎉"}');
    // Cut inside the four-byte emoji and inside a three-byte character.
    const cuts = [bytes.indexOf(0xf0) + 2, bytes.indexOf(0xe4) + 1];
    const body = new PassThrough();
    const reading = readAnswer(answer(body), 0);
    body.write(bytes.subarray(0, cuts[1]));
    body.write(bytes.subarray(cuts[1], cuts[0]));
    body.end(bytes.subarray(cuts[0]));
    await expect(reading).resolves.toBe('{"text":"héllo 你好 🎉"}');
  });

  it('reads as undici text() does: a leading BOM dropped, one in the middle kept, empty is empty', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const cases = [
      Buffer.concat([bom, Buffer.from('{"a":1}')]),
      Buffer.concat([Buffer.from('x'), bom, Buffer.from('y')]),
      Buffer.alloc(0),
      bom,
    ];
    for (const bytes of cases) {
      const body = Readable.from(bytes.length ? [bytes] : []);
      const expected = await new Response(bytes).text();
      await expect(readAnswer(answer(body), 0)).resolves.toBe(expected);
      expect(utf8Text(bytes)).toBe(expected);
    }
  });

  it('a body cut before its end is a retryable upstream failure', async () => {
    const body = new PassThrough();
    const reading = readAnswer(answer(body), 0);
    body.write('{"partial":');
    setImmediate(() => body.destroy());
    const err = (await reading.catch((e: unknown) => e)) as RelayError;
    expect(err).toBeInstanceOf(RelayError);
    expect(err.status).toBe(502);
    expect(err.retryable).toBe(true);
  });

  it('a stall past the deadline or undici body timeout is a timeout', async () => {
    const stalled = new PassThrough();
    stalled.write('{"partial":');
    const late = (await readAnswer(answer(stalled), Date.now() + 30).catch((e: unknown) => e)) as RelayError;
    expect(late.status).toBe(504);
    expect(stalled.destroyed).toBe(true);

    const timedOut = new PassThrough();
    const reading = readAnswer(answer(timedOut), 0);
    timedOut.destroy(new undiciErrors.BodyTimeoutError());
    expect(((await reading.catch((e: unknown) => e)) as RelayError).status).toBe(504);
  });
});
