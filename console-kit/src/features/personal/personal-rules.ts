import type { UserSetting } from '../../api/api-types';
import { formatCurrency, quotaToCurrency } from '../../format/quota';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../lib/account-validation';

/** docs/decisions.md#quota-warning-default: the form starts at 100000 when the user never saved a threshold. */
export const DEFAULT_FORM_WARNING_THRESHOLD = 100_000;
/** Threshold presets, labelled from QuotaPerUnit (docs/decisions.md#quota-warning-presets). */
export const WARNING_THRESHOLD_PRESETS = [100_000, 500_000, 1_000_000, 5_000_000] as const;
/** Spec: available models are shown collapsed after 10. */
export const MODELS_COLLAPSED_COUNT = 10;

export type PersonalMessageKey =
  | 'password.originalRequired'
  | 'password.newRequired'
  | 'password.tooShort'
  | 'password.tooLong'
  | 'password.mismatch'
  | 'delete.mismatch'
  | 'transfer.tooSmall'
  | 'transfer.tooLarge'
  | 'transfer.notInteger'
  | 'notification.thresholdInvalid'
  | 'notification.webhookRequired'
  | 'notification.webhookHttps'
  | 'notification.emailInvalid'
  | 'emailBind.emailRequired'
  | 'emailBind.codeRequired';

export interface RuleViolation {
  messageKey: PersonalMessageKey;
  values?: Record<string, string>;
}

/** The user's stored preferences with the form's defaults where nothing was saved. */
export function parseUserSetting(raw: string | null | undefined): UserSetting {
  let stored: Partial<UserSetting> = {};
  if (raw) {
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        stored = parsed;
      }
    } catch {
      stored = {};
    }
  }
  const threshold = Number(stored.quota_warning_threshold);
  return {
    notify_type: stored.notify_type === 'webhook' ? 'webhook' : 'email',
    quota_warning_threshold:
      Number.isSafeInteger(threshold) && threshold >= 0 ? threshold : DEFAULT_FORM_WARNING_THRESHOLD,
    webhook_url: typeof stored.webhook_url === 'string' ? stored.webhook_url : '',
    // Never shown by the server; an empty value keeps the stored secret.
    webhook_secret: '',
    notification_email: typeof stored.notification_email === 'string' ? stored.notification_email : '',
    accept_unset_model_ratio_model: stored.accept_unset_model_ratio_model === true,
  };
}

/** "100000 ($0.20)" with the site's QuotaPerUnit. */
export function thresholdPresetLabel(quota: number, quotaPerUnit: number): string {
  return `${quota} (${formatCurrency(quotaToCurrency(quota, quotaPerUnit))})`;
}

export function validatePasswordChange(values: {
  original: string;
  password: string;
  confirm: string;
}): RuleViolation | null {
  if (!values.password) {
    return { messageKey: 'password.newRequired' };
  }
  if (values.password.length < PASSWORD_MIN_LENGTH) {
    return { messageKey: 'password.tooShort' };
  }
  if (values.password.length > PASSWORD_MAX_LENGTH) {
    return { messageKey: 'password.tooLong' };
  }
  if (values.password !== values.confirm) {
    return { messageKey: 'password.mismatch' };
  }
  return null;
}

/** Spec: the typed text must equal the username exactly. */
export function validateDeleteConfirmation(typed: string, username: string): RuleViolation | null {
  return typed === username ? null : { messageKey: 'delete.mismatch' };
}

/**
 * Spec: the amount is at least one quota unit ('划转金额最低为 …'); it is a whole number of units and not
 * more than the earnings waiting.
 */
export function validateTransfer(
  amount: number,
  available: number,
  quotaPerUnit: number,
  formatQuota: (quota: number) => string,
): RuleViolation | null {
  if (!Number.isFinite(amount) || !Number.isInteger(amount)) {
    return { messageKey: 'transfer.notInteger' };
  }
  if (amount < quotaPerUnit) {
    return { messageKey: 'transfer.tooSmall', values: { min: formatQuota(quotaPerUnit) } };
  }
  if (amount > available) {
    return { messageKey: 'transfer.tooLarge', values: { max: formatQuota(available) } };
  }
  return null;
}

export function validateNotificationSetting(setting: UserSetting): RuleViolation | null {
  if (!Number.isSafeInteger(setting.quota_warning_threshold) || setting.quota_warning_threshold < 0) {
    return { messageKey: 'notification.thresholdInvalid' };
  }
  const url = setting.webhook_url.trim();
  if (setting.notify_type === 'webhook' && !url) {
    return { messageKey: 'notification.webhookRequired' };
  }
  if (url && !/^https:\/\/[^\s/]+/i.test(url)) {
    return { messageKey: 'notification.webhookHttps' };
  }
  const email = setting.notification_email.trim();
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    return { messageKey: 'notification.emailInvalid' };
  }
  return null;
}

/** The body of `PUT /api/user/setting` for the notification tab: the secret only when typed. */
export function toNotificationPayload(setting: UserSetting): Partial<UserSetting> {
  return {
    notify_type: setting.notify_type,
    quota_warning_threshold: setting.quota_warning_threshold,
    webhook_url: setting.webhook_url.trim(),
    ...(setting.webhook_secret ? { webhook_secret: setting.webhook_secret } : {}),
    notification_email: setting.notification_email.trim(),
  };
}

/** docs/decisions.md#roles: 100+ super admin, 10+ admin, 1 ordinary user. */
export function roleLabelKey(role: number): 'role.root' | 'role.admin' | 'role.user' {
  if (role >= 100) {
    return 'role.root';
  }
  return role >= 10 ? 'role.admin' : 'role.user';
}
