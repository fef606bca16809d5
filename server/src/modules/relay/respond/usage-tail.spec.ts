import { usageFromTail } from './complete';

describe('usageFromTail', () => {
  it('reads the usage object at the end of an answer', () => {
    const text =
      '{"id":"x","model":"m","choices":[{"message":{"content":"hi"}}],"usage" : {"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}';
    expect(usageFromTail('openai', text)).toMatchObject({ prompt_tokens: 12, completion_tokens: 3 });
    expect(
      usageFromTail(
        'gemini',
        '{"candidates":[],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2}}',
      ),
    ).toMatchObject({ prompt_tokens: 4, completion_tokens: 2 });
  });

  it('takes nothing for a usage that is not an object, whatever object follows it', () => {
    const text =
      '{"usage":null,"choices":[{"message":{"content":"hi"},"prompt_tokens":9,"completion_tokens":9}],"model":"m"}';
    expect(usageFromTail('openai', text)).toBeNull();
    expect(usageFromTail('openai', '{"usage":"n/a","x":{"prompt_tokens":1}}')).toBeNull();
    expect(usageFromTail('openai', '{"choices":[]}')).toBeNull();
    // Cut short: no closing brace.
    expect(usageFromTail('openai', '{"usage":{"prompt_tokens":1')).toBeNull();
  });

  it('finds the end of a usage object past nested objects, braces and escaped quotes in strings', () => {
    const usage = {
      prompt_tokens: 20,
      completion_tokens: 5,
      prompt_tokens_details: { cached_tokens: 8 },
      note: 'a } and a \\" and a {',
    };
    const text = `{"choices":[{"message":{"content":"}"}}],"usage":\n\t ${JSON.stringify(usage, null, 1)}\r\n}`;
    expect(JSON.parse(text).usage).toEqual(usage);
    expect(usageFromTail('openai', text)).toMatchObject({
      prompt_tokens: 20,
      completion_tokens: 5,
      cached_tokens: 8,
    });
    // Braces in strings that would mislead a count of braces: one of each (the counts cancel), an
    // opening one alone (the count runs past the object), a closing one alone (it stops in a string).
    for (const note of ['{ }', '{', '}', '} {', '{"}']) {
      const u = {
        prompt_tokens: 7,
        note,
        completion_tokens: 2,
        completion_tokens_details: { reasoning_tokens: 1 },
      };
      const t = `{"choices":[],"usage":${JSON.stringify(u)},"model":"m"}`;
      expect(usageFromTail('openai', t)).toMatchObject({
        prompt_tokens: 7,
        completion_tokens: 2,
        reasoning_tokens: 1,
      });
      expect(usageFromTail('openai', t, t.lastIndexOf('"usage"'))).toMatchObject({ prompt_tokens: 7 });
    }
    // Not an object after the colon, or no colon.
    expect(usageFromTail('openai', '{"usage" \n [1]}')).toBeNull();
    expect(usageFromTail('openai', '{"x":"usage" }')).toBeNull();
  });
});
