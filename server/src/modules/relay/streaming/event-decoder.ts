import { EventStreamCodec } from '@smithy/eventstream-codec';
import { StringDecoder } from 'node:string_decoder';
import { createParser } from 'eventsource-parser';
import type { SseEvent, StreamFraming } from '../types';

export interface EventDecoder {
  feed(chunk: Uint8Array): void;
  end(): void;
}

const toUtf8 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
const fromUtf8 = (s: string): Uint8Array => Buffer.from(s, 'utf8');

/**
 * Cuts an upstream byte stream into events: SSE (eventsource-parser), NDJSON lines (Ollama), or AWS
 * event-stream frames (Bedrock; payload becomes `data`, the `:event-type` header `event`).
 * Memory is bounded by one event, not by the stream.
 */
export function createEventDecoder(framing: StreamFraming, onEvent: (e: SseEvent) => void): EventDecoder {
  if (framing === 'ndjson') {
    let pending = '';
    const decoder = new StringDecoder('utf8');
    const emitLines = (text: string) => {
      pending += text;
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl).trim();
        pending = pending.slice(nl + 1);
        if (line) onEvent({ data: line });
      }
    };
    return {
      feed: (chunk) => emitLines(decoder.write(chunk)),
      end: () => {
        emitLines(decoder.end() + '\n');
      },
    };
  }
  if (framing === 'aws-eventstream') {
    // Network reads do not follow frame boundaries: cut whole frames (the first 4 bytes of each are
    // its total length, big-endian) before decoding them one by one.
    const codec = new EventStreamCodec(toUtf8, fromUtf8);
    let pending = Buffer.alloc(0);
    return {
      feed: (chunk) => {
        pending = pending.length ? Buffer.concat([pending, chunk]) : Buffer.from(chunk);
        while (pending.length >= 4) {
          const total = pending.readUInt32BE(0);
          if (total < 16) throw new Error('malformed event-stream frame');
          if (pending.length < total) break;
          const msg = codec.decode(pending.subarray(0, total));
          pending = pending.subarray(total);
          const type = msg.headers[':event-type']?.value ?? msg.headers[':exception-type']?.value;
          onEvent({ event: typeof type === 'string' ? type : undefined, data: toUtf8(msg.body) });
        }
      },
      end: () => {
        if (pending.length) throw new Error('event stream ended inside a frame');
      },
    };
  }
  const parser = createParser({
    onEvent: (e) => onEvent(e.event ? { event: e.event, data: e.data } : { data: e.data }),
  });
  // StringDecoder keeps a character cut between two reads for the next one, as TextDecoder's stream
  // mode does, at a fraction of its cost per read; the parser drops a leading BOM itself.
  const decoder = new StringDecoder('utf8');
  return {
    feed: (chunk) => parser.feed(decoder.write(chunk)),
    end: () => {
      parser.feed(decoder.end() + '\n\n');
    },
  };
}

/** One event in SSE wire form. */
export function formatSse(e: SseEvent): string {
  const data = e.data.includes('\n') ? e.data.split('\n').join('\ndata: ') : e.data;
  return e.event ? `event: ${e.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}
