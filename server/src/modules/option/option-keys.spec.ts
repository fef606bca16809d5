import {
  OPTION_INDEX,
  parseOptionValue,
  type BoolOptionKey,
  type JsonOptionKey,
  type NumberOptionKey,
} from './option-definitions';
import type { OptionService } from './option.service';

const def = (key: string) => {
  const d = OPTION_INDEX.get(key);
  if (!d) throw new Error(`no option ${key}`);
  return d;
};

describe('option reads', () => {
  it('reads a stored value the definition would refuse as the definition’s default', () => {
    expect(parseOptionValue(def('GroupRatio'), 'null')).toEqual({ default: 1, vip: 1, svip: 1 });
    expect(parseOptionValue(def('GroupRatio'), '{"vip":"x"}')).toEqual({ default: 1, vip: 1, svip: 1 });
    expect(parseOptionValue(def('AutoGroups'), 'not json')).toEqual(['default']);
    expect(parseOptionValue(def('SMTPPort'), 'abc')).toBe(587);
    expect(parseOptionValue(def('SMTPPort'), '')).toBe(587);
  });

  it('reads a valid stored value as stored', () => {
    expect(parseOptionValue(def('GroupRatio'), '{"vip":2}')).toEqual({ vip: 2 });
    expect(parseOptionValue(def('AutoGroups'), '[]')).toEqual([]);
    expect(parseOptionValue(def('SMTPPort'), '465')).toBe(465);
    expect(parseOptionValue(def('PasswordLoginEnabled'), 'false')).toBe(false);
  });

  it('accepts only known keys of the reader’s kind (checked by the type checker)', () => {
    const bool: BoolOptionKey = 'PasswordLoginEnabled';
    const num: NumberOptionKey = 'SMTPPort';
    const json: JsonOptionKey = 'GroupRatio';
    // @ts-expect-error an int option is not read as a boolean
    const notBool: BoolOptionKey = 'SMTPPort';
    // @ts-expect-error a misspelt key does not compile
    const typo: NumberOptionKey = 'SMTPPrt';
    type Reader = Pick<OptionService, 'bool' | 'num' | 'json' | 'get'>;
    const read = (o: Reader) => [
      o.bool('RegisterEnabled'),
      o.num('QuotaPerUnit'),
      o.json('AutoGroups'),
      // A JSON option reads as its definition's declared type, without a type argument at the call.
      o.json('AutoGroups').map((g: string) => g.length),
      Object.values(o.json('GroupRatio')).map((r: number) => r.toFixed(2)),
      // @ts-expect-error the declared type is a list of strings, not numbers
      o.json('AutoGroups').map((g: number) => g),
      // @ts-expect-error a JSON option is not read as a number
      o.num('GroupRatio'),
      // @ts-expect-error unknown key
      o.get('NoSuchOption'),
    ];
    expect([bool, num, json, notBool, typo, typeof read]).toEqual([
      'PasswordLoginEnabled',
      'SMTPPort',
      'GroupRatio',
      'SMTPPort',
      'SMTPPrt',
      'function',
    ]);
  });
});
