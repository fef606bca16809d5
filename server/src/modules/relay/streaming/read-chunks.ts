import type { Readable } from 'node:stream';

/**
 * Reads a body to its end, handing each chunk to `onChunk`; while a promise `onChunk` returned is
 * pending the body is paused (the client's backpressure reaches the upstream). Resolves at the body's
 * end and rejects as a `for await` loop over it would: with the body's error, on a close before the
 * end, or with what `onChunk` threw (the body is then destroyed). Unlike that loop, no async iterator
 * and no promise per chunk: the loop's iterator and its end-of-stream watch cost more than a short
 * stream's whole per-event work.
 */
export function readChunks(
  body: Readable,
  onChunk: (chunk: Buffer) => Promise<void> | undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    // Already over (its events gone by): what the loop would have seen.
    if (body.readableEnded) return resolve();
    if (body.destroyed) return reject(body.errored ?? new Error('Premature close'));
    let settled = false;
    // The listeners stay attached once settled (they do nothing then): an error the body emits while
    // it is destroyed, after a failure, still has a listener.
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      if (!body.destroyed) body.destroy();
      reject(err);
    };
    const resume = () => {
      if (!settled) body.resume();
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      let wait: Promise<void> | undefined;
      try {
        wait = onChunk(chunk);
      } catch (err) {
        return fail(err as Error);
      }
      if (wait) {
        body.pause();
        wait.then(resume, fail);
      }
    });
    body.on('end', () => {
      if (settled) return;
      settled = true;
      resolve();
    });
    body.on('error', fail);
    // (The error only when it is one: an Error's stack costs microseconds, and every body closes.)
    body.on('close', () => {
      if (!settled) fail(new Error('Premature close'));
    });
  });
}
