import { ApiProperty } from '@nestjs/swagger';

const STRING_MAPS = {
  type: 'array',
  items: { type: 'object', additionalProperties: { type: 'string' } },
} as const;

/** The public status object: site names, switches and texts the console needs before sign-in. */
export class StatusView {
  @ApiProperty() system_name!: string;
  @ApiProperty({ description: 'logo URL or data URL' }) logo!: string;
  @ApiProperty() footer_html!: string;
  @ApiProperty({ description: 'quota units per US dollar' }) quota_per_unit!: number;
  @ApiProperty() display_in_currency!: boolean;
  @ApiProperty() display_token_stat!: boolean;
  @ApiProperty() enable_drawing!: boolean;
  @ApiProperty() enable_task!: boolean;
  @ApiProperty() enable_data_export!: boolean;
  @ApiProperty({ ...STRING_MAPS, description: 'chat links: each entry maps a name to a URL template' })
  chats!: Array<Record<string, string>>;
  @ApiProperty({
    type: 'array',
    description: 'payment methods: name and type, other display keys as configured',
    items: {
      type: 'object',
      required: ['name', 'type'],
      properties: { name: { type: 'string' }, type: { type: 'string' }, color: { type: 'string' } },
      additionalProperties: true,
    },
  })
  pay_methods!: Array<Record<string, string>>;
  @ApiProperty() data_export_default_time!: string;
  @ApiProperty() default_collapse_sidebar!: boolean;
  @ApiProperty() mj_notify_enabled!: boolean;
  @ApiProperty() chat_link!: string;
  @ApiProperty() chat_link2!: string;
  @ApiProperty() docs_link!: string;
  @ApiProperty() version!: string;
  @ApiProperty({
    description: "the repository whose latest release tag the console's version check compares with",
  })
  version_check_repo!: string;
  @ApiProperty({ description: 'when the server started (unix seconds)' }) start_time!: number;
  @ApiProperty() email_verification!: boolean;
  @ApiProperty() turnstile_check!: boolean;
  @ApiProperty() turnstile_site_key!: string;
  @ApiProperty() github_oauth!: boolean;
  @ApiProperty() github_client_id!: string;
  @ApiProperty() oidc_enabled!: boolean;
  @ApiProperty() oidc_authorization_endpoint!: string;
  @ApiProperty() oidc_client_id!: string;
  @ApiProperty() wechat_login!: boolean;
  @ApiProperty() wechat_qrcode!: string;
  @ApiProperty() telegram_oauth!: boolean;
  @ApiProperty() telegram_bot_name!: string;
  @ApiProperty() linuxdo_oauth!: boolean;
  @ApiProperty() linuxdo_client_id!: string;
  @ApiProperty() server_address!: string;
  @ApiProperty({ description: 'whether the first-run setup is done' }) setup!: boolean;
  @ApiProperty() self_use_mode_enabled!: boolean;
  @ApiProperty() demo_site_enabled!: boolean;
  @ApiProperty() default_use_auto_group!: boolean;
  @ApiProperty({ description: 'whether online payment is configured' }) enable_online_topup!: boolean;
  @ApiProperty() price!: number;
  @ApiProperty() min_topup!: number;
  @ApiProperty() top_up_link!: string;
  @ApiProperty() usd_exchange_rate!: number;
  @ApiProperty() password_login_enabled!: boolean;
  @ApiProperty() password_register_enabled!: boolean;
  @ApiProperty() register_enabled!: boolean;
}
