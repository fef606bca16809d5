/**
 * A notice to a user by the channel they chose in their settings: their webhook (JSON, signed with
 * X-Webhook-Signature when they set a secret) or e-mail (to their notification address, else their
 * account's, when SMTP is configured).
 */
import { createHmac } from 'node:crypto';
import type { SafeHttpClient } from '../../common/safe-http';
import type { MailService } from './mail.service';

/** Where a user wants notices (their parsed notification settings and account e-mail). */
export interface NoticeTarget {
  notify_type?: string;
  webhook_url?: string;
  webhook_secret?: string;
  notification_email?: string;
  email?: string | null;
}

export interface UserNotice {
  /** The webhook body's `type` (`quota_exceed`, `budget_notice`...). */
  type: string;
  title: string;
  /** Plain text; lines become `<br>` in the e-mail. */
  content: string;
  values: unknown[];
}

export async function deliverNotice(
  deps: { http: SafeHttpClient; mail: MailService; smtpConfigured: boolean },
  target: NoticeTarget,
  notice: UserNotice,
): Promise<void> {
  if (target.notify_type === 'webhook' && target.webhook_url) {
    const body = JSON.stringify({ ...notice, timestamp: Math.floor(Date.now() / 1000) });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (target.webhook_secret)
      headers['X-Webhook-Signature'] = createHmac('sha256', target.webhook_secret).update(body).digest('hex');
    await deps.http.fetch(target.webhook_url, {
      method: 'POST',
      headers,
      body,
      timeoutMs: 5000,
      maxRedirects: 0,
    });
    return;
  }
  const to = target.notification_email || target.email;
  if (to && deps.smtpConfigured)
    await deps.mail.send(to, notice.title, `<p>${escapeHtml(notice.content).replace(/\n/g, '<br>')}</p>`);
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
