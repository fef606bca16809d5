import { Route, Routes } from 'react-router';
import { AboutPage } from '@gatehouse/console-kit/about';
import { ChannelsPage } from '@gatehouse/console-kit/channels';
import { LoginPage } from '@gatehouse/console-kit/auth';
import { HomePage } from '@gatehouse/console-kit/home';
import { OAuthCallbackPage } from '@gatehouse/console-kit/oauth';
import { PersonalSettingsPage } from '@gatehouse/console-kit/personal';
import { RegisterPage } from '@gatehouse/console-kit/register';
import { ResetConfirmPage, ResetRequestPage } from '@gatehouse/console-kit/reset';
import { SetupGuard, SetupPage } from '@gatehouse/console-kit/setup';
import { ConsoleLayout, NotFoundPage, RequireAuth } from '@gatehouse/console-kit/shell';
import { SettingsPage } from '@gatehouse/console-kit/settings';
import { UsersPage } from '@gatehouse/console-kit/users';
import { PricingPage } from '@gatehouse/console-kit/pricing';
import { PlaygroundPage } from '@gatehouse/console-kit/playground';
import { TokensPage } from '@gatehouse/console-kit/tokens';
import { RedemptionsPage } from '@gatehouse/console-kit/redemptions';
import { WalletPage } from '@gatehouse/console-kit/wallet';
import { Chat2LinkPage, ChatPage } from '@gatehouse/console-kit/chat';
import { LogsPage } from '@gatehouse/console-kit/logs';
import { DrawingLogPage } from '@gatehouse/console-kit/drawing-log';
import { TaskLogPage } from '@gatehouse/console-kit/task-log';
import { DashboardPage } from '@gatehouse/console-kit/dashboard';

/** The host owns the routes; each feature of the kit is mounted here as it is built. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<SetupGuard />}>
        <Route element={<ConsoleLayout />}>
          <Route index element={<HomePage />} />
          <Route path="setup" element={<SetupPage />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="register" element={<RegisterPage />} />
          <Route path="reset" element={<ResetRequestPage />} />
          {/* The emailed reset link (decision 12); public, unlike the rest of /user. */}
          <Route path="user/reset" element={<ResetConfirmPage />} />
          <Route path="oauth/:provider" element={<OAuthCallbackPage />} />
          <Route path="about" element={<AboutPage />} />
          <Route path="pricing" element={<PricingPage />} />
          {/* Protected pages: visitors without a stored user go to /login. */}
          <Route element={<RequireAuth />}>
            <Route path="personal" element={<PersonalSettingsPage />} />
            <Route path="playground" element={<PlaygroundPage />} />
            <Route path="user" element={<UsersPage />} />
            <Route path="setting" element={<SettingsPage />} />
            <Route path="channel" element={<ChannelsPage />} />
            <Route path="token" element={<TokensPage />} />
            <Route path="redemption" element={<RedemptionsPage />} />
            <Route path="topup" element={<WalletPage />} />
            <Route path="chat/:id?" element={<ChatPage />} />
            <Route path="chat2link" element={<Chat2LinkPage />} />
            <Route path="log" element={<LogsPage />} />
            <Route path="midjourney" element={<DrawingLogPage />} />
            <Route path="task" element={<TaskLogPage />} />
            <Route path="detail" element={<DashboardPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
