import { describe, expect, it } from 'vitest';
import {
  addCustomModels,
  channelStatusName,
  checkJsonEditor,
  endsWithV1,
  parseColumns,
  parsePageSize,
  parsePriority,
  parseStatusInfo,
  parseWeight,
  responseTimeTone,
  stripTrailingSlashes,
  tagFieldDisplay,
  tagRowEnabled,
  typeRules,
  TYPES_WITH_EXTRA_FIELDS,
} from './channel-rules';
import { channelsLocales } from './channels-locales';

describe('JSON editors', () => {
  it('accepts blank text and JSON objects', () => {
    expect(checkJsonEditor('')).toBeNull();
    expect(checkJsonEditor('   ')).toBeNull();
    expect(checkJsonEditor('{"temperature": 0.2}')).toBeNull();
    expect(checkJsonEditor('{"gpt-4": "gpt-4o"}', 'mapping')).toBeNull();
    expect(checkJsonEditor('{"400": "500", "429": 503}', 'statusCodes')).toBeNull();
  });

  it('refuses malformed JSON, non-objects and wrong values', () => {
    expect(checkJsonEditor('{"a": ')).toBe('invalid');
    expect(checkJsonEditor("{'a': 1}")).toBe('invalid');
    expect(checkJsonEditor('[1, 2]')).toBe('notObject');
    expect(checkJsonEditor('null')).toBe('notObject');
    expect(checkJsonEditor('"text"')).toBe('notObject');
    expect(checkJsonEditor('{"gpt-4": 5}', 'mapping')).toBe('badMappingValue');
    expect(checkJsonEditor('{"gpt-4": {"x": 1}}', 'mapping')).toBe('badMappingValue');
    expect(checkJsonEditor('{"400": "abc"}', 'statusCodes')).toBe('badStatusCode');
    expect(checkJsonEditor('{"999": "500"}', 'statusCodes')).toBe('badStatusCode');
    expect(checkJsonEditor('{"40": "500"}', 'statusCodes')).toBe('badStatusCode');
  });
});

describe('tag rows', () => {
  it('shows priority and weight blank when the children differ (null) and the value otherwise', () => {
    expect(tagFieldDisplay(null)).toBe('');
    expect(tagFieldDisplay(undefined)).toBe('');
    expect(tagFieldDisplay(0)).toBe('0');
    expect(tagFieldDisplay(-5)).toBe('-5');
  });

  it('is enabled when any child is', () => {
    expect(tagRowEnabled([{ status: 2 }, { status: 1 }])).toBe(true);
    expect(tagRowEnabled([{ status: 2 }, { status: 3 }])).toBe(false);
    expect(tagRowEnabled([])).toBe(false);
  });
});

describe('per-type fields', () => {
  it('gives every type the spec names an extra field or notice, with texts in both languages', () => {
    for (const type of TYPES_WITH_EXTRA_FIELDS) {
      const rules = typeRules(type);
      expect(rules.extra.length + rules.notices.length, `type ${type}`).toBeGreaterThan(0);
      for (const extra of rules.extra) {
        for (const language of ['zh', 'en'] as const) {
          const texts = channelsLocales[language].form.extra as Record<
            string,
            { label: string; placeholder: string }
          >;
          expect(texts[extra.key]?.label, `${language} ${extra.key}`).toBeTruthy();
          expect(texts[extra.key]?.placeholder, `${language} ${extra.key}`).toBeTruthy();
        }
      }
      for (const notice of rules.notices) {
        expect((channelsLocales.zh.form.notice as Record<string, string>)[notice]).toBeTruthy();
        expect((channelsLocales.en.form.notice as Record<string, string>)[notice]).toBeTruthy();
      }
    }
  });

  it('applies the type defaults of the spec', () => {
    expect(typeRules(18).defaultOther).toBe('v2.1');
    expect(typeRules(2).defaultModels).toContain('mj_imagine');
    expect(typeRules(5).defaultModels).toContain('mj_imagine');
    expect(typeRules(36).defaultModels).toEqual(['suno_music', 'suno_lyrics']);
    expect(typeRules(1).extra.map((e) => e.field)).toEqual(['openai_organization']);
    expect(typeRules(3).extra.map((e) => e.field)).toEqual(['base_url', 'other']);
    expect(typeRules(8).extra[0]).toMatchObject({ field: 'base_url', required: true });
    expect(typeRules(39).extra[0]).toMatchObject({ field: 'other', required: true });
    expect(typeRules(45).extra[0].options?.length).toBeGreaterThan(0);
    expect(typeRules(14)).toMatchObject({ extra: [], genericBaseUrl: true });
  });
});

describe('small rules', () => {
  it('warns on a /v1 base URL and strips trailing slashes', () => {
    expect(endsWithV1('https://api.example.com/v1')).toBe(true);
    expect(endsWithV1('https://api.example.com/v1/')).toBe(true);
    expect(endsWithV1('https://api.example.com/v1beta')).toBe(false);
    expect(endsWithV1('https://api.example.com')).toBe(false);
    expect(stripTrailingSlashes(' https://a.example.com/// ')).toBe('https://a.example.com');
  });

  it('parses priority (integer ≥ −999) and weight (negatives clamped to 0)', () => {
    expect(parsePriority('10')).toBe(10);
    expect(parsePriority('-999')).toBe(-999);
    expect(parsePriority('-1000')).toBeNull();
    expect(parsePriority('1.5')).toBeNull();
    expect(parsePriority('abc')).toBeNull();
    expect(parsePriority('')).toBeNull();
    expect(parseWeight('-3')).toBe(0);
    expect(parseWeight('7')).toBe(7);
    expect(parseWeight('2147483648')).toBeNull();
    expect(parseWeight('1e3')).toBeNull();
  });

  it('colours response times by the spec bands', () => {
    expect(responseTimeTone(0)).toBe('untested');
    expect(responseTimeTone(1000)).toBe('green');
    expect(responseTimeTone(1001)).toBe('lime');
    expect(responseTimeTone(3000)).toBe('lime');
    expect(responseTimeTone(5000)).toBe('yellow');
    expect(responseTimeTone(5001)).toBe('red');
  });

  it('reads the auto-disable reason and time', () => {
    expect(parseStatusInfo('{"status_reason":"quota exceeded","status_time":1700000000}')).toEqual({
      reason: 'quota exceeded',
      time: 1700000000,
    });
    expect(parseStatusInfo('not json')).toBeNull();
    expect(parseStatusInfo(null)).toBeNull();
    expect(parseStatusInfo('{}')).toBeNull();
  });

  it('names statuses and keeps stored preferences sane', () => {
    expect([1, 2, 3, 9].map(channelStatusName)).toEqual(['enabled', 'disabled', 'autoDisabled', 'unknown']);
    expect(parsePageSize('50')).toBe(50);
    expect(parsePageSize('7')).toBe(10);
    expect(parsePageSize(null)).toBe(10);
    const columns = parseColumns({ balance: false, actions: false, bogus: 1, weight: 'no' });
    expect(columns).toMatchObject({ balance: false, actions: true, weight: true, id: true });
    expect(parseColumns('garbage').name).toBe(true);
  });

  it('adds custom models and reports the ones already there', () => {
    expect(addCustomModels(['a'], 'b, a,\nc, b')).toEqual({ models: ['a', 'b', 'c'], duplicates: ['a'] });
  });
});

describe('Midjourney channel defaults', () => {
  it('start with every action the server routes, under its names', () => {
    expect(typeRules(2).defaultModels).toEqual([
      'mj_imagine',
      'mj_variation',
      'mj_reroll',
      'mj_blend',
      'mj_modal',
      'mj_zoom',
      'mj_shorten',
      'mj_pan',
      'mj_describe',
      'mj_upscale',
      'mj_upload',
      'swap_face',
    ]);
  });
});
