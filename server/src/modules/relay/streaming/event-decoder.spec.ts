import { createEventDecoder, formatSse } from './event-decoder';
import type { SseEvent } from '../types';

/** Feeds `bytes` cut at every given offset, as network reads arrive. */
function decode(framing: 'sse' | 'ndjson', bytes: Buffer, cuts: number[]): SseEvent[] {
  const events: SseEvent[] = [];
  const d = createEventDecoder(framing, (e) => events.push(e));
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    d.feed(bytes.subarray(from, at));
    from = at;
  }
  d.end();
  return events;
}

describe('event decoder', () => {
  const text = '{"choices":[{"delta":{"content":"héllo 你好 🙂"}}]}';

  it('keeps a character cut between two reads whole (SSE), at every cut point', () => {
    const bytes = Buffer.from(`data: ${text}\n\nevent: done\ndata: [DONE]\n\n`);
    for (let at = 1; at < bytes.length; at++)
      expect(decode('sse', bytes, [at])).toEqual([{ data: text }, { event: 'done', data: '[DONE]' }]);
  });

  it('drops a leading byte-order mark, even when it is cut', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`data: ${text}\n\n`)]);
    expect(decode('sse', bytes, [1, 2])).toEqual([{ data: text }]);
    expect(decode('ndjson', Buffer.concat([bytes.subarray(0, 3), Buffer.from(`${text}\n`)]), [2])).toEqual([
      { data: text },
    ]);
  });

  it('cuts NDJSON lines across reads and keeps a last line without its newline', () => {
    const bytes = Buffer.from(`${text}\n\n${text}`);
    for (const at of [5, 60, bytes.length - 3])
      expect(decode('ndjson', bytes, [at])).toEqual([{ data: text }, { data: text }]);
  });

  it('ends a stream whose last event has no blank line after it', () => {
    expect(decode('sse', Buffer.from('data: {"a":1}'), [])).toEqual([{ data: '{"a":1}' }]);
  });

  it('formats an event back to SSE, multi-line data included', () => {
    expect(formatSse({ data: 'a\nb' })).toBe('data: a\ndata: b\n\n');
    expect(formatSse({ event: 'x', data: '{}' })).toBe('event: x\ndata: {}\n\n');
  });
});
