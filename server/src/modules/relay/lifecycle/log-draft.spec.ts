import { serialiseOther } from './log-draft';

/** `other` as consumeDraft builds it: the price fields, then the optional ones, then the caller's extras. */
const base = (): Record<string, unknown> => ({
  group: 'default',
  client_type: undefined,
  model_ratio: 1.25,
  model_price: -1,
  completion_ratio: 4,
  group_ratio: 1,
  user_group_ratio: -1,
  cache_tokens: 0,
  cache_ratio: 0.5,
  cache_creation_tokens: 0,
  cache_creation_ratio: 1.25,
});

describe("the consume log's other column", () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['a plain call', { ...base(), frt: 12, admin_info: { use_channel: [3] } }],
    [
      'every optional field and extra',
      {
        ...base(),
        client_type: 'claude-code',
        cache_creation_tokens_1h: 40,
        cache_creation_1h_ratio: 2,
        reasoning_tokens: 900,
        audio: true,
        audio_input: 10,
        audio_output: 20,
        image: true,
        image_ratio: 2,
        frt: 0,
        admin_info: { use_channel: [1, 7, 9] },
        is_model_mapped: true,
        upstream_model_name: 'gpt-4o-2024-08-06',
        claude: true,
        reasoning_effort: 'high',
        passed_through: true,
        stream_interrupted: true,
        stream_bad_events: 2,
        content_logged: true,
      },
    ],
    ['an error row', { ...base(), admin_info: { use_channel: [] }, status_code: 429 }],
    [
      'odd values: null, negative zero, huge, tiny, unicode and escapes',
      {
        ...base(),
        group: 'vip "组" \n\u2028 🙂',
        user_group_ratio: null,
        cache_tokens: -0,
        model_ratio: 1e21,
        completion_ratio: 1e-7,
        frt: null,
        admin_info: { use_channel: [2], note: 'kept' },
        upstream_model_name: 'a\\b"c',
      },
    ],
  ];

  it.each(cases)('is exactly JSON.stringify of the object: %s', (_name, other) => {
    expect(serialiseOther(other)).toBe(JSON.stringify(other));
  });

  it('a value the schema refuses (a NaN or infinite ratio) is written as JSON.stringify writes it', () => {
    for (const bad of [NaN, Infinity, -Infinity]) {
      const other = { ...base(), model_ratio: bad, frt: 1, admin_info: { use_channel: [1] } };
      expect(serialiseOther(other)).toBe(JSON.stringify(other));
    }
  });

  it('extras a realtime session adds first still all arrive (the declared keys go first)', () => {
    const other = { ...base(), ws: true, admin_info: { use_channel: [4] } };
    expect(JSON.parse(serialiseOther(other))).toEqual(JSON.parse(JSON.stringify(other)));
  });
});
