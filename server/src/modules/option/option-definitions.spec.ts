import { OPTION_DEFINITIONS, OPTION_INDEX, validateOptionValue } from './option-definitions';

const check = (key: string, value: string) => validateOptionValue(OPTION_INDEX.get(key)!, value);

describe('option definitions', () => {
  it('every default passes its own validation', () => {
    for (const def of OPTION_DEFINITIONS)
      expect([def.key, check(def.key, def.default)]).toEqual([def.key, { value: def.default }]);
  });

  it('has the reference defaults that matter at first start', () => {
    const d = (k: string) => OPTION_INDEX.get(k)!.default;
    expect(d('QuotaPerUnit')).toBe('500000');
    expect(d('PreConsumedQuota')).toBe('500');
    expect(JSON.parse(d('GroupRatio'))).toEqual({ default: 1, vip: 1, svip: 1 });
    expect(JSON.parse(d('AutoGroups'))).toEqual(['default']);
    expect(JSON.parse(d('ModelRatio'))['gpt-4o']).toBe(1.25);
    expect(JSON.parse(d('ModelPrice'))['suno_lyrics']).toBe(0.01);
    expect(d('AutomaticDisableKeywords').split('\n')).toHaveLength(7);
    expect(d('SystemName')).toBe('Gatehouse');
  });

  it('checks types and ranges', () => {
    expect(check('RetryTimes', '11')).toHaveProperty('problem');
    expect(check('RetryTimes', '1.5')).toHaveProperty('problem');
    expect(check('RetryTimes', '3')).toEqual({ value: '3' });
    expect(check('DataExportInterval', '0')).toHaveProperty('problem');
    expect(check('PasswordLoginEnabled', 'yes')).toHaveProperty('problem');
    expect(check('USDExchangeRate', '7.25')).toEqual({ value: '7.25' });
    expect(check('USDExchangeRate', 'NaN')).toHaveProperty('problem');
  });

  it('gives the spec messages for JSON settings', () => {
    expect(check('TopupGroupRatio', '{')).toEqual({ problem: { key: 'topup_ratio_not_json' } });
    expect(check('PayMethods', 'nope')).toEqual({ problem: { key: 'pay_methods_not_json' } });
    expect(check('ModelRatio', '[1')).toEqual({
      problem: { key: 'option_not_json', params: { key: 'ModelRatio' } },
    });
    expect(check('ModelPrice', '{"x":0}')).toEqual({ problem: { key: 'model_price_zero' } });
    expect(check('ModelRatio', '{"x":-1}')).toHaveProperty('problem');
    expect(check('AutoGroups', '{"a":1}')).toHaveProperty('problem');
  });

  it('checks email domains and URLs', () => {
    expect(check('EmailDomainWhitelist', 'gmail.com,qq.com')).toEqual({ value: 'gmail.com,qq.com' });
    expect(check('EmailDomainWhitelist', 'gmail.com,not a domain')).toEqual({
      problem: { key: 'domain_invalid', params: { host: 'example.com' } },
    });
    expect(check('EmailDomainWhitelist', 'qq.com,QQ.com')).toEqual({ problem: { key: 'domain_duplicate' } });
    expect(check('ServerAddress', 'https://gw.example.com/')).toEqual({ value: 'https://gw.example.com' });
    expect(check('ServerAddress', 'ftp://x')).toHaveProperty('problem');
    expect(check('oidc.well_known', 'example.com/.well-known')).toEqual({
      problem: { key: 'well_known_invalid' },
    });
  });
});
