import { fail } from '../../common/app-error';
import { isHttpUrl } from '../option';
import { checkEmail } from './user-rules';
import { UserSettingDto } from './user.dto';

export interface UserSetting {
  notify_type: 'email' | 'webhook';
  quota_warning_threshold: number;
  webhook_url: string;
  webhook_secret: string;
  notification_email: string;
  accept_unset_model_ratio_model: boolean;
}

export function parseSetting(raw: string | null): Partial<UserSetting> {
  if (!raw) return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return typeof v === 'object' && v !== null ? v : {};
  } catch {
    return {};
  }
}

/** Validates the notification settings; an empty webhook secret keeps the stored one. */
export function mergeSetting(current: Partial<UserSetting>, input: UserSettingDto): UserSetting {
  const notifyType = (input.notify_type ?? current.notify_type ?? 'email') as UserSetting['notify_type'];
  const threshold = input.quota_warning_threshold ?? current.quota_warning_threshold ?? 500000;
  if (!Number.isSafeInteger(threshold) || threshold < 0) {
    throw fail('setting_invalid', { reason: 'quota_warning_threshold' });
  }
  const webhookUrl = (input.webhook_url ?? current.webhook_url ?? '').trim();
  if (
    webhookUrl &&
    (!webhookUrl.toLowerCase().startsWith('https://') || !isHttpUrl(webhookUrl) || webhookUrl.length > 2048)
  ) {
    throw fail('webhook_https_only');
  }
  if (notifyType === 'webhook' && !webhookUrl) throw fail('webhook_https_only');
  const secret = input.webhook_secret ? input.webhook_secret : (current.webhook_secret ?? '');
  if (secret.length > 256) throw fail('setting_invalid', { reason: 'webhook_secret' });
  const emailRaw = (input.notification_email ?? current.notification_email ?? '').trim();
  const email = emailRaw ? checkEmail(emailRaw) : '';
  return {
    notify_type: notifyType,
    quota_warning_threshold: threshold,
    webhook_url: webhookUrl,
    webhook_secret: secret,
    notification_email: email,
    accept_unset_model_ratio_model:
      input.accept_unset_model_ratio_model ?? current.accept_unset_model_ratio_model ?? false,
  };
}
