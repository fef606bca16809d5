import { describe, expect, it } from 'vitest';
import { formatQuota } from '../../format/quota';
import {
  parseUserSetting,
  roleLabelKey,
  thresholdPresetLabel,
  toNotificationPayload,
  validateDeleteConfirmation,
  validateNotificationSetting,
  validatePasswordChange,
  validateTransfer,
} from './personal-rules';

const money = (quota: number) => formatQuota(quota, { displayInCurrency: true, quotaPerUnit: 500_000 });

describe('parseUserSetting', () => {
  it('starts the form at 100000 and email when nothing was saved', () => {
    expect(parseUserSetting('')).toEqual({
      notify_type: 'email',
      quota_warning_threshold: 100_000,
      webhook_url: '',
      webhook_secret: '',
      notification_email: '',
      accept_unset_model_ratio_model: false,
    });
    expect(parseUserSetting('not json')).toEqual(parseUserSetting(null));
    expect(parseUserSetting('[1,2]').notify_type).toBe('email');
  });

  it('reads what was saved and never shows a secret', () => {
    const setting = parseUserSetting(
      JSON.stringify({
        notify_type: 'webhook',
        quota_warning_threshold: 500_000,
        webhook_url: 'https://hooks.example.com/x',
        webhook_secret: 'should-not-show',
        accept_unset_model_ratio_model: true,
      }),
    );
    expect(setting).toMatchObject({
      notify_type: 'webhook',
      quota_warning_threshold: 500_000,
      webhook_url: 'https://hooks.example.com/x',
      webhook_secret: '',
      accept_unset_model_ratio_model: true,
    });
  });
});

describe('thresholdPresetLabel', () => {
  it('labels the presets with dollars from QuotaPerUnit', () => {
    expect(thresholdPresetLabel(1_000_000, 500_000)).toBe('1000000 ($2.00)');
    expect(thresholdPresetLabel(100_000, 1_000_000)).toBe('100000 ($0.10)');
  });
});

describe('validatePasswordChange', () => {
  it('wants a new password of 8 to 20 characters typed twice', () => {
    expect(validatePasswordChange({ original: 'old', password: '', confirm: '' })?.messageKey).toBe(
      'password.newRequired',
    );
    expect(validatePasswordChange({ original: 'old', password: 'short', confirm: 'short' })?.messageKey).toBe(
      'password.tooShort',
    );
    expect(
      validatePasswordChange({ original: 'old', password: 'long-enough', confirm: 'long-enougH' })
        ?.messageKey,
    ).toBe('password.mismatch');
    expect(
      validatePasswordChange({ original: '', password: 'long-enough', confirm: 'long-enough' }),
    ).toBeNull();
  });
});

describe('validateDeleteConfirmation', () => {
  it('needs the exact username', () => {
    expect(validateDeleteConfirmation('alice', 'alice')).toBeNull();
    expect(validateDeleteConfirmation('Alice', 'alice')?.messageKey).toBe('delete.mismatch');
    expect(validateDeleteConfirmation('alice ', 'alice')?.messageKey).toBe('delete.mismatch');
  });
});

describe('validateTransfer', () => {
  it('needs at least one unit, whole, and not more than is waiting', () => {
    expect(validateTransfer(499_999, 2_000_000, 500_000, money)).toEqual({
      messageKey: 'transfer.tooSmall',
      values: { min: '$1.00' },
    });
    expect(validateTransfer(500_000, 2_000_000, 500_000, money)).toBeNull();
    expect(validateTransfer(2_000_001, 2_000_000, 500_000, money)).toEqual({
      messageKey: 'transfer.tooLarge',
      values: { max: '$4.00' },
    });
    expect(validateTransfer(600_000.5, 2_000_000, 500_000, money)?.messageKey).toBe('transfer.notInteger');
    expect(validateTransfer(Number.NaN, 2_000_000, 500_000, money)?.messageKey).toBe('transfer.notInteger');
  });
});

describe('validateNotificationSetting', () => {
  const base = parseUserSetting('');
  it('accepts the defaults', () => {
    expect(validateNotificationSetting(base)).toBeNull();
  });

  it('wants an https webhook address', () => {
    expect(validateNotificationSetting({ ...base, notify_type: 'webhook' })?.messageKey).toBe(
      'notification.webhookRequired',
    );
    expect(
      validateNotificationSetting({
        ...base,
        notify_type: 'webhook',
        webhook_url: 'http://hooks.example.com',
      })?.messageKey,
    ).toBe('notification.webhookHttps');
    expect(
      validateNotificationSetting({
        ...base,
        notify_type: 'webhook',
        webhook_url: 'https://hooks.example.com/a',
      }),
    ).toBeNull();
  });

  it('refuses negative or fractional thresholds and bad addresses', () => {
    expect(validateNotificationSetting({ ...base, quota_warning_threshold: -1 })?.messageKey).toBe(
      'notification.thresholdInvalid',
    );
    expect(validateNotificationSetting({ ...base, quota_warning_threshold: 1.5 })?.messageKey).toBe(
      'notification.thresholdInvalid',
    );
    expect(validateNotificationSetting({ ...base, notification_email: 'nope' })?.messageKey).toBe(
      'notification.emailInvalid',
    );
  });
});

describe('toNotificationPayload', () => {
  it('sends the webhook secret only when one was typed', () => {
    const setting = {
      ...parseUserSetting(''),
      webhook_url: ' https://h.example.com ',
      notification_email: ' a@b.co ',
    };
    expect(toNotificationPayload(setting)).toEqual({
      notify_type: 'email',
      quota_warning_threshold: 100_000,
      webhook_url: 'https://h.example.com',
      notification_email: 'a@b.co',
    });
    expect(toNotificationPayload({ ...setting, webhook_secret: 's3cret' }).webhook_secret).toBe('s3cret');
  });
});

describe('roleLabelKey', () => {
  it('names the three roles', () => {
    expect(roleLabelKey(100)).toBe('role.root');
    expect(roleLabelKey(10)).toBe('role.admin');
    expect(roleLabelKey(1)).toBe('role.user');
  });
});
