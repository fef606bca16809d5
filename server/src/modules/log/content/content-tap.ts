import type { ServerResponse } from 'node:http';

/**
 * What a relay call wrote to its caller, copied as it is written: the bytes of `res.write` and
 * `res.end`, up to a limit. Installed on one response only, and only for a call whose content is
 * stored; a call without content logging never reaches this file.
 */
export class ContentTap {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** More was written than the limit allowed to keep. */
  overflow = false;

  constructor(
    res: ServerResponse,
    private readonly limit: number,
  ) {
    // The response's own methods, called with the response as `this` after the copy.
    const write = res.write as (...a: unknown[]) => boolean; // eslint-disable-line @typescript-eslint/unbound-method
    const end = res.end as (...a: unknown[]) => ServerResponse; // eslint-disable-line @typescript-eslint/unbound-method
    const keep = (chunk: unknown, encoding: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      this.keep(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    };
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return write.call(this, chunk, ...rest);
    } as ServerResponse['write'];
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return end.call(this, chunk, ...rest);
    } as ServerResponse['end'];
  }

  private keep(chunk: unknown, encoding: BufferEncoding): void {
    if (this.overflow) return;
    const b = Buffer.isBuffer(chunk)
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.from(String(chunk), encoding);
    const room = this.limit - this.kept;
    if (b.length > room) {
      this.overflow = true;
      if (room > 0) this.chunks.push(Buffer.from(b.subarray(0, room)));
      this.kept = this.limit;
      return;
    }
    // A copy: the writer may reuse its buffer once the write returns.
    this.chunks.push(Buffer.from(b));
    this.kept += b.length;
  }

  /** The bytes kept, as text. */
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
