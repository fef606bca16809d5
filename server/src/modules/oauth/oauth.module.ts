import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { OptionModule } from '../option';
import { UserModule } from '../user';
import { OAuthAccountService } from './oauth-account.service';
import { OAuthCallerService } from './oauth-caller.service';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { endpointsOf, OAUTH_ENDPOINTS } from './oauth-endpoints';
import { OAuthHttpService } from './oauth-http.service';
import { OAuthStateService } from './oauth-state.service';
import { OAuthController } from './oauth.controller';
import { OAuthService } from './oauth.service';
import { OneTimeStore } from './one-time-store';
import { GitHubProvider } from './providers/github.provider';
import { LinuxDoProvider } from './providers/linuxdo.provider';
import { OidcProvider } from './providers/oidc.provider';
import { WeChatProvider } from './providers/wechat.provider';

/** Third-party sign-in and account binding (GitHub, OIDC, LinuxDO, WeChat, Telegram). */
@Module({
  imports: [AuthModule, UserModule, OptionModule],
  controllers: [OAuthController],
  providers: [
    {
      provide: OAUTH_ENDPOINTS,
      useFactory: (c: AppConfig) => endpointsOf(c.oauthUrls),
      inject: [APP_CONFIG],
    },
    OneTimeStore,
    OAuthStateService,
    OAuthCallerService,
    OAuthAccountService,
    OAuthHttpService,
    OAuthService,
    GitHubProvider,
    OidcProvider,
    LinuxDoProvider,
    WeChatProvider,
  ],
})
export class OAuthModule {}
