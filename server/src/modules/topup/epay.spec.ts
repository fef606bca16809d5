import { epayPurchaseParams, epaySign, epayVerify, moneyToCents } from './epay';

describe('epay signature', () => {
  // Reference values from `printf '%s' '<text>' | md5sum`.
  it('signs the sorted non-empty parameters (sign and sign_type left out) with the key appended', () => {
    const params = {
      type: 'alipay',
      pid: '1001',
      out_trade_no: 'T1',
      name: 'TUC1',
      money: '1.00',
      empty: '',
      sign: 'ignored',
      sign_type: 'MD5',
    };
    // money=1.00&name=TUC1&out_trade_no=T1&pid=1001&type=alipay + secret-key
    expect(epaySign(params, 'secret-key')).toBe('ad4fa59ea72b4729eb7ed4a9594439c5');
  });

  it('hashes UTF-8 text', () => {
    expect(epaySign({ b: '2', a: '中文' }, 'k')).toBe('25af9a07b3e828436837fbe2cd8e5b2f');
  });

  it('verifies its own form and refuses any change, another key, or a sign type other than MD5', () => {
    const form = epayPurchaseParams({
      pid: '1001',
      key: 'secret-key',
      type: 'wx',
      outTradeNo: 'USR1NOabc1',
      name: 'TUC10',
      money: '73.00',
      notifyUrl: 'https://shop.example.com/api/user/epay/notify',
      returnUrl: 'https://shop.example.com/api/user/epay/return',
    });
    expect(form).toMatchObject({ sign_type: 'MD5', device: 'pc', money: '73.00', pid: '1001' });
    expect(form.sign).toMatch(/^[0-9a-f]{32}$/);
    expect(epayVerify(form, 'secret-key')).toBe(true);
    expect(epayVerify({ ...form, sign: form.sign.toUpperCase() }, 'secret-key')).toBe(true);
    expect(epayVerify(form, 'other-key')).toBe(false);
    expect(epayVerify({ ...form, money: '0.01' }, 'secret-key')).toBe(false);
    expect(epayVerify({ ...form, extra: 'x' }, 'secret-key')).toBe(false);
    expect(epayVerify({ ...form, sign_type: 'RSA' }, 'secret-key')).toBe(false);
    expect(epayVerify({ ...form, sign: 'not-hex' }, 'secret-key')).toBe(false);
    const { sign: _sign, ...unsigned } = form;
    expect(epayVerify(unsigned, 'secret-key')).toBe(false);
  });
});

describe('moneyToCents', () => {
  it.each([
    ['7.30', 730],
    ['7.3', 730],
    ['7', 700],
    ['0.01', 1],
    [' 12.34 ', 1234],
  ])('%s → %i', (s, cents) => expect(moneyToCents(s)).toBe(cents));

  it.each(['', '-1.00', '1.001', '1e3', 'abc', '1.', '.5', '1,00'])('refuses %p', (s) =>
    expect(moneyToCents(s)).toBeNull(),
  );
});
