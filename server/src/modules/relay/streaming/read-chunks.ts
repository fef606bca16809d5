import type { Readable } from 'node:stream';

/**
 * Reads a body to its end: each chunk goes to `onChunk` as it comes; once the chunks that came
 * together have been handed over (one upstream read can carry many: undici pushes each HTTP chunk of it
 * on its own), `afterRead` runs once, and while a promise it returned is pending the body is paused
 * (the client's backpressure reaches the upstream). So what one read brought goes out in one write, as
 * a `for await` loop over the body (whose reads join what is buffered) did.
 *
 * Resolves at the body's end and rejects as that loop would: with the body's error, on a close before
 * the end, or with what a callback threw (the body is then destroyed). Unlike the loop, no async
 * iterator and no promise per chunk: the loop's iterator and its end-of-stream watch cost more than a
 * short stream's whole per-event work. An `afterRead` not yet run when the body ends is skipped (the
 * caller writes what is left with the end of its response).
 */
export function readChunks(
  body: Readable,
  onChunk: (chunk: Buffer) => void,
  afterRead: () => Promise<void> | undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    // Already over (its events gone by): what the loop would have seen.
    if (body.readableEnded) return resolve();
    if (body.destroyed) return reject(body.errored ?? new Error('Premature close'));
    let settled = false;
    let scheduled = false;
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
    const readDone = () => {
      scheduled = false;
      if (settled) return;
      let wait: Promise<void> | undefined;
      try {
        wait = afterRead();
      } catch (err) {
        return fail(err as Error);
      }
      if (wait) {
        body.pause();
        wait.then(resume, fail);
      }
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      try {
        onChunk(chunk);
      } catch (err) {
        return fail(err as Error);
      }
      // After every chunk of this read: the parser pushes them in one synchronous run.
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(readDone);
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
