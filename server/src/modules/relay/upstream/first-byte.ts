/**
 * A channel's first-byte timeout (`setting.first_byte_timeout`, seconds): an upstream that has not
 * started its answer by then is given up, and the call moves to the next channel like any retryable
 * failure. The response headers must arrive within the budget, then the first bytes of the body
 * within what is left of it (a stream that opens and stays silent counts as stuck).
 */
import { Readable } from 'node:stream';
import { RelayError } from '../errors';
import type { ChannelSnapshot } from '../channel-selector';

/** The channel's first-byte budget in milliseconds (0 = none). */
export function firstByteMs(channel: Pick<ChannelSnapshot, 'setting'>): number {
  const seconds = Number(channel.setting.first_byte_timeout);
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 0;
}

export function firstByteTimeout(): RelayError {
  return new RelayError(504, 'relay_upstream_timeout', {}, '', 'upstream_timeout', true);
}

/**
 * Waits until the body has bytes to read (nothing is consumed), it ends, or `ms` pass; on timeout the
 * body is destroyed and a retryable 504 is thrown.
 */
export function awaitFirstByte(stream: unknown, ms: number): Promise<void> {
  if (!(stream instanceof Readable)) return Promise.resolve();
  const body = stream;
  if (body.readableLength > 0 || body.readableEnded || body.destroyed) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      body.off('readable', done);
      body.off('end', done);
      body.off('close', done);
      body.off('error', done);
      resolve();
    };
    const timer = setTimeout(
      () => {
        body.off('readable', done);
        body.off('end', done);
        body.off('close', done);
        body.off('error', done);
        // Given up: the abort error of the destroyed body is expected and ignored.
        body.on('error', () => undefined);
        body.destroy();
        reject(firstByteTimeout());
      },
      Math.max(1, ms),
    );
    body.on('readable', done);
    body.on('end', done);
    body.on('close', done);
    body.on('error', done);
  });
}
