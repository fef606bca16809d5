import { sanitizeUpstreamText } from '../errors';
import { joinUrl, normalizeRerank, parseDataUrl, stopList, textOf, upstreamErrorMessage } from './util';

describe('upstreamErrorMessage', () => {
  it('reads the usual error shapes', () => {
    expect(
      upstreamErrorMessage(400, '{"error":{"message":"bad model","type":"invalid_request_error"}}'),
    ).toBe('bad model');
    expect(
      upstreamErrorMessage(400, '{"type":"error","error":{"type":"x","message":"anthropic says no"}}'),
    ).toBe('anthropic says no');
    expect(
      upstreamErrorMessage(429, '[{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}]'),
    ).toBe('quota');
    expect(upstreamErrorMessage(400, '{"error":"plain string"}')).toBe('plain string');
    expect(upstreamErrorMessage(400, '{"message":"top-level"}')).toBe('top-level');
    expect(upstreamErrorMessage(400, '{"success":false,"errors":[{"code":7003,"message":"no route"}]}')).toBe(
      'no route',
    );
  });

  it('falls back to the text, cut to 500 characters, or to the status', () => {
    expect(upstreamErrorMessage(502, '<html>Bad gateway</html>')).toBe('<html>Bad gateway</html>');
    expect(upstreamErrorMessage(500, 'upstream failure '.repeat(50))).toHaveLength(501);
    expect(upstreamErrorMessage(503, '  ')).toBe('upstream answered HTTP 503');
  });

  it('never repeats keys or URLs', () => {
    const body =
      '{"error":{"message":"Incorrect API key provided: sk-proj-abc123def456. See https://x.test/keys."}}';
    expect(upstreamErrorMessage(401, body)).toBe('Incorrect API key provided: [key]. See [url]');
    expect(sanitizeUpstreamText('key AIzaSyA1234567890abcdef and Bearer abc.def')).toBe(
      'key [key] and Bearer [key]',
    );
  });
});

describe('helpers', () => {
  it('joins URLs without double slashes', () => {
    expect(joinUrl('https://a.test//', '/v1/x')).toBe('https://a.test/v1/x');
  });

  it('reads message content and data URLs', () => {
    expect(textOf('hi')).toBe('hi');
    expect(
      textOf([
        { type: 'text', text: 'a' },
        { type: 'image_url', image_url: { url: 'x' } },
        { type: 'text', text: 'b' },
      ]),
    ).toBe('a\nb');
    expect(textOf(null)).toBe('');
    expect(parseDataUrl('data:image/png;base64,AAAA')).toEqual({ mimeType: 'image/png', data: 'AAAA' });
    expect(parseDataUrl('https://x.test/a.png')).toBeNull();
    expect(stopList('x')).toEqual(['x']);
    expect(stopList(['a', 1])).toEqual(['a']);
    expect(stopList(undefined)).toBeUndefined();
  });

  it('fills rerank usage from wherever the provider puts it', () => {
    expect(normalizeRerank({ results: [], usage: { total_tokens: 9 } }).usage).toEqual({
      prompt_tokens: 9,
      total_tokens: 9,
    });
    expect(normalizeRerank({ results: [], meta: { tokens: { input_tokens: 4 } } }).usage).toEqual({
      prompt_tokens: 4,
      total_tokens: 4,
    });
    expect(normalizeRerank({ results: [] }).usage).toEqual({ prompt_tokens: 0, total_tokens: 0 });
  });
});
