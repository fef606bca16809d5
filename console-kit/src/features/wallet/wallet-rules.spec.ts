import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  isGatewayUrl,
  minimumAmount,
  normalizeAmount,
  parsePayMethods,
  readRawAnswer,
  submitPayForm,
} from './wallet-rules';

describe('wallet rules', () => {
  it('reads PayMethods from a list or its JSON text; anything else is a config error', () => {
    const methods = [
      { name: 'Alipay', type: 'alipay', color: '#1677ff' },
      { name: 'WeChat', type: 'wxpay' },
    ];
    expect(parsePayMethods(methods)).toEqual([
      { name: 'Alipay', type: 'alipay', color: '#1677ff' },
      { name: 'WeChat', type: 'wxpay', color: undefined },
    ]);
    expect(parsePayMethods(JSON.stringify(methods))?.length).toBe(2);
    expect(parsePayMethods('not json')).toBeNull();
    expect(parsePayMethods({ name: 'x' })).toBeNull();
    expect(parsePayMethods([{ name: 'x' }])).toBeNull();
    expect(parsePayMethods([])).toEqual([]);
  });

  it('raises amounts below 1 to 1 and drops fractions', () => {
    expect(normalizeAmount('0')).toBe(1);
    expect(normalizeAmount('-3')).toBe(1);
    expect(normalizeAmount('0.5')).toBe(1);
    expect(normalizeAmount('12.9')).toBe(12);
    expect(normalizeAmount(' 30 ')).toBe(30);
    expect(normalizeAmount('')).toBeNull();
    expect(normalizeAmount('1e3')).toBeNull();
    expect(normalizeAmount('ten')).toBeNull();
    expect(normalizeAmount('99999999999999999999')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('states the minimum in the unit of the amount field', () => {
    expect(minimumAmount({ min_topup: 5, display_in_currency: true, quota_per_unit: 500000 })).toBe(5);
    expect(minimumAmount({ min_topup: 5, display_in_currency: false, quota_per_unit: 500000 })).toBe(2500000);
  });

  it('reads the unenveloped /amount and /pay answers', () => {
    expect(readRawAnswer({ raw: { success: true, message: 'success', data: '73.00' } })).toEqual({
      ok: true,
      data: '73.00',
      url: '',
    });
    expect(
      readRawAnswer({
        raw: { success: true, message: 'success', data: { pid: '1' }, url: 'https://pay.example/submit.php' },
      }),
    ).toEqual({ ok: true, data: { pid: '1' }, url: 'https://pay.example/submit.php' });
    expect(readRawAnswer({ raw: { success: false, message: 'error', data: '充值数量不能小于 2' } })).toEqual({
      ok: false,
      reason: '充值数量不能小于 2',
    });
    expect(readRawAnswer({ raw: { success: false, message: '管理员未开启在线充值' } })).toEqual({
      ok: false,
      reason: '管理员未开启在线充值',
    });
    expect(readRawAnswer({ raw: null })).toEqual({ ok: false, reason: null });
  });

  it('posts only to http(s) gateways', () => {
    expect(isGatewayUrl('https://pay.example/submit.php')).toBe(true);
    expect(isGatewayUrl('javascript:alert(1)')).toBe(false);
  });
});

describe('pay form', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('posts every field as a hidden value into a new window and removes the form again', () => {
    const submitted: { action: string; method: string; target: string; fields: Record<string, string> }[] =
      [];
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      submitted.push({
        action: this.action,
        method: this.method.toLowerCase(),
        target: this.target,
        fields: Object.fromEntries(
          [...this.querySelectorAll('input')].map((input) => [input.name, input.value] as [string, string]),
        ),
      });
    });
    submitPayForm('https://pay.example/submit.php', {
      pid: 1001,
      name: 'TUC10',
      money: '73.00',
      evil: '"><script>alert(1)</script>',
      nothing: null,
    });
    expect(submitted).toEqual([
      {
        action: 'https://pay.example/submit.php',
        method: 'post',
        target: '_blank',
        fields: {
          pid: '1001',
          name: 'TUC10',
          money: '73.00',
          evil: '"><script>alert(1)</script>',
          nothing: '',
        },
      },
    ]);
    expect(document.querySelectorAll('form')).toHaveLength(0);
    expect(document.querySelectorAll('script')).toHaveLength(0);
  });
});
