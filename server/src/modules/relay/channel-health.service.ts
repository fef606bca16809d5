import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CacheBus } from '../../common/cache-bus';
import { getDefaultLang, translate } from '../../common/i18n/messages';
import { SafeHttpClient } from '../../common/safe-http';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { ChannelStatus, LogType, Role, Token, User } from '../../database/entities';
import { QuotaLedgerService } from '../billing';
import { ChannelService } from '../channel';
import { LogService, type LogText } from '../log';
import { deliverNotice, escapeHtml, MailService } from '../mail';
import { OptionService } from '../option';
import { formatQuota } from '../user';
import type { UserSnapshot } from '../user';
import { parseSetting } from '../user';
import type { ChannelSnapshot } from './channel-selector';
import type { TokenSnapshot } from './relay-cache.service';

const WARNING_EVERY_MS = 2 * 3600 * 1000;

/**
 * Side effects of relay outcomes that are not money: automatic channel disabling (reference data
 * "Retry and auto-disable rules") with a note to root, lazy token status updates (expired,
 * exhausted), and the low-balance warning (email or signed webhook, at most once per 2 hours).
 */
@Injectable()
export class ChannelHealthService {
  private readonly logger = new Logger('ChannelHealth');
  private readonly warnedAt = new Map<number, number>();
  private readonly http: SafeHttpClient;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly channels: ChannelService,
    private readonly options: OptionService,
    private readonly logs: LogService,
    private readonly mail: MailService,
    private readonly bus: CacheBus,
    private readonly ledger: QuotaLedgerService,
  ) {
    this.http = SafeHttpClient.forConfig(config, options);
  }

  /** Persists a status the relay derived (expired / exhausted), once. */
  markToken(token: TokenSnapshot, status: number): void {
    if (token.status === status) return;
    token.status = status;
    void this.ds
      .getRepository(Token)
      .update({ id: token.id, status: 1 }, { status })
      .then(() => this.bus.publish('tokens', [token.id, token.keyHash]))
      .catch((err: Error) => this.logger.warn(`token ${token.id} status update failed: ${err.message}`));
  }

  /** Should this upstream failure disable the channel? */
  shouldDisable(ch: ChannelSnapshot, status: number, message: string): boolean {
    if (!this.options.bool('AutomaticDisableChannelEnabled') || !ch.autoBan) return false;
    if (status === 401) return true;
    const lower = message.toLowerCase();
    return this.options
      .get('AutomaticDisableKeywords')
      .split('\n')
      .map((k) => k.trim().toLowerCase())
      .some((k) => k && lower.includes(k));
  }

  async onUpstreamError(ch: ChannelSnapshot, status: number, message: string): Promise<void> {
    if (!this.shouldDisable(ch, status, message)) return;
    await this.disable(ch.id, ch.name, `status ${status}: ${message}`.slice(0, 500));
  }

  async disable(id: number, name: string, reason: string): Promise<void> {
    try {
      if (!(await this.channels.setStatus(id, ChannelStatus.AutoDisabled, reason))) return;
      await this.notifyRoot({ key: 'log_text_channel_auto_disabled', params: { id, name, reason } });
    } catch (err) {
      this.logger.error(`auto-disable of channel ${id} failed: ${(err as Error).message}`);
    }
  }

  async enable(id: number, name: string): Promise<void> {
    if (await this.channels.setStatus(id, ChannelStatus.Enabled, 'test passed'))
      await this.notifyRoot({ key: 'log_text_channel_auto_enabled', params: { id, name } });
  }

  /**
   * A system log for root (its text a message key, so each reader sees it in their language), and an
   * email in the default language when SMTP and root's email are set.
   */
  private async notifyRoot(text: LogText): Promise<void> {
    const root = await this.ds
      .getRepository(User)
      .findOne({ where: { role: Role.Root }, order: { id: 'ASC' } });
    if (!root) return;
    await this.logs.record({ userId: root.id, username: root.username, type: LogType.System, content: text });
    if (root.email && this.options.get('SMTPServer')) {
      const line = translate(text.key, getDefaultLang(), text.params);
      await this.mail
        .send(root.email, line.slice(0, 200), `<p>${escapeHtml(line)}</p>`)
        .catch(() => undefined);
    }
  }

  /** Low-balance warning after a charge. */
  afterCharge(user: UserSnapshot, charged: number): void {
    if (charged <= 0) return;
    const last = this.warnedAt.get(user.id) ?? 0;
    if (Date.now() - last < WARNING_EVERY_MS) return;
    const threshold = user.quotaWarningThreshold || this.options.num('QuotaRemindThreshold');
    if (!threshold) return;
    // The ledger's running estimate: no database read (and, while it is fresh, no promise) per request.
    const peek = this.ledger.peekBalance(user.id);
    if (peek !== null && peek >= threshold) return;
    this.warnIfLow(user, threshold, peek).catch((err: Error) =>
      this.logger.warn(`quota warning for user ${user.id} not checked: ${err.message}`),
    );
  }

  private async warnIfLow(user: UserSnapshot, threshold: number, peek: number | null): Promise<void> {
    const quota = peek ?? (await this.ledger.balanceOf(user.id));
    if (quota >= threshold) return;
    this.warnedAt.set(user.id, Date.now());
    const shown = formatQuota(quota, this.options.num('QuotaPerUnit'), true);
    const text = `Your balance is low: ${shown} left (warning threshold ${formatQuota(threshold, this.options.num('QuotaPerUnit'), true)}).`;
    try {
      await deliverNotice(
        { http: this.http, mail: this.mail, smtpConfigured: !!this.options.get('SMTPServer') },
        { ...parseSetting(user.setting), email: user.email },
        { type: 'quota_exceed', title: 'Quota warning', content: text, values: [shown] },
      );
    } catch (err) {
      this.logger.warn(`quota warning for user ${user.id} not delivered: ${(err as Error).message}`);
    }
  }
}
