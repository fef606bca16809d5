import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { OptionService } from '../option';
import { SetupService } from '../setup';
import { startTime, version } from '../../version';
import type { StatusView } from './status.view';

/** Builds the public status object from the options (in memory) and the setup state. */
@Injectable()
export class StatusService {
  constructor(
    private readonly options: OptionService,
    private readonly setup: SetupService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  text(key: 'Notice' | 'About' | 'HomePageContent'): string {
    return this.options.get(key);
  }

  async publicStatus(): Promise<StatusView> {
    const o = this.options;
    const chats = o.json('Chats') ?? [];
    const chatUrl = (i: number) => (chats[i] ? (Object.values(chats[i])[0] ?? '') : '');
    return {
      system_name: o.get('SystemName'),
      logo: o.get('Logo'),
      footer_html: o.get('Footer'),
      quota_per_unit: o.num('QuotaPerUnit'),
      display_in_currency: o.bool('DisplayInCurrencyEnabled'),
      display_token_stat: o.bool('DisplayTokenStatEnabled'),
      enable_drawing: o.bool('DrawingEnabled'),
      enable_task: o.bool('TaskEnabled'),
      enable_data_export: o.bool('DataExportEnabled'),
      chats,
      pay_methods: o.json('PayMethods'),
      data_export_default_time: o.get('DataExportDefaultTime'),
      default_collapse_sidebar: o.bool('DefaultCollapseSidebar'),
      mj_notify_enabled: o.bool('MjNotifyEnabled'),
      chat_link: chatUrl(0),
      chat_link2: chatUrl(1),
      docs_link: o.get('general_setting.docs_link'),
      version,
      // The console's version check compares `version` with this repository's latest release tag.
      version_check_repo: this.config.versionCheckRepo,
      start_time: startTime,
      email_verification: o.bool('EmailVerificationEnabled'),
      turnstile_check: o.bool('TurnstileCheckEnabled'),
      turnstile_site_key: o.get('TurnstileSiteKey'),
      github_oauth: o.bool('GitHubOAuthEnabled'),
      github_client_id: o.get('GitHubClientId'),
      oidc_enabled: o.bool('oidc.enabled'),
      oidc_authorization_endpoint: o.get('oidc.authorization_endpoint'),
      oidc_client_id: o.get('oidc.client_id'),
      wechat_login: o.bool('WeChatAuthEnabled'),
      wechat_qrcode: o.get('WeChatAccountQRCodeImageURL'),
      telegram_oauth: o.bool('TelegramOAuthEnabled'),
      telegram_bot_name: o.get('TelegramBotName'),
      linuxdo_oauth: o.bool('LinuxDOOAuthEnabled'),
      linuxdo_client_id: o.get('LinuxDOClientId'),
      server_address: o.get('ServerAddress'),
      setup: await this.setup.isDone(),
      self_use_mode_enabled: o.bool('SelfUseModeEnabled'),
      demo_site_enabled: o.bool('DemoSiteEnabled'),
      default_use_auto_group: o.bool('DefaultUseAutoGroup'),
      enable_online_topup: !!(o.get('PayAddress') && o.get('EpayId') && o.get('EpayKey')),
      price: o.num('Price'),
      min_topup: o.num('MinTopUp'),
      top_up_link: o.get('TopUpLink'),
      usd_exchange_rate: o.num('USDExchangeRate'),
      password_login_enabled: o.bool('PasswordLoginEnabled'),
      password_register_enabled: o.bool('PasswordRegisterEnabled'),
      register_enabled: o.bool('RegisterEnabled'),
    };
  }
}
