import { pickLang, setDefaultLang } from '../../common/i18n/messages';
import { logTextColumns, renderLogContent, withoutLogText } from './log-text';

describe('log texts', () => {
  it('stores the Chinese text in content and the key with its parameters in other', () => {
    const columns = logTextColumns(
      { key: 'log_text_redeemed', params: { amount: '$2.00', id: 7 } },
      { a: 1 },
    );
    expect(columns.content).toBe('通过兑换码充值 $2.00，兑换码ID 7');
    expect(columns.other).toEqual({
      a: 1,
      content_i18n: { key: 'log_text_redeemed', params: { amount: '$2.00', id: 7 } },
    });
  });

  it("renders a keyed row in the reader's language and an unkeyed or unknown one as stored", () => {
    const { content, other } = logTextColumns({ key: 'log_text_user_created', params: { actor: 'root' } });
    expect(renderLogContent(content, JSON.stringify(other), 'en')).toBe('An admin created the user (root)');
    expect(renderLogContent(content, JSON.stringify(other), 'zh')).toBe('管理员创建了用户（root）');
    expect(renderLogContent('旧文本', '', 'en')).toBe('旧文本');
    expect(renderLogContent('旧文本', '{"content_i18n":{"key":"no_such_key"}}', 'en')).toBe('旧文本');
    expect(renderLogContent('旧文本', 'not json', 'en')).toBe('旧文本');
  });

  it("shows a running call's or task's marker in the reader's language", () => {
    expect(renderLogContent('in progress', '{"a":1}', 'en')).toBe('In progress');
    expect(renderLogContent('in progress', '', 'zh')).toBe('进行中');
  });

  it('leaves the key out of what readers see in other', () => {
    expect(withoutLogText('{"a":1,"content_i18n":{"key":"x"}}')).toBe('{"a":1}');
    expect(withoutLogText('{"content_i18n":{"key":"x"}}')).toBe('');
    expect(withoutLogText('{"a":1}')).toBe('{"a":1}');
    expect(withoutLogText('')).toBe('');
  });
});

describe('request language', () => {
  afterEach(() => setDefaultLang('zh'));

  it('takes the supported language with the highest quality, else the default', () => {
    expect(pickLang('en-US,en;q=0.9')).toBe('en');
    expect(pickLang('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh');
    expect(pickLang('fr-FR, zh;q=0.3, en;q=0.7')).toBe('en');
    expect(pickLang('fr-FR')).toBe('zh');
    expect(pickLang(undefined)).toBe('zh');
    setDefaultLang('en');
    expect(pickLang(undefined)).toBe('en');
    expect(pickLang('de')).toBe('en');
    expect(pickLang('zh-TW')).toBe('zh');
  });
});
