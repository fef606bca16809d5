import { lazy, type ComponentType } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { LoginPage } from '@gatehouse/console-kit/auth';
import { HomePage } from '@gatehouse/console-kit/home';
import { SetupGuard, SetupPage } from '@gatehouse/console-kit/setup';
import { ConsoleLayout, NotFoundPage, RequireAuth } from '@gatehouse/console-kit/shell';

/**
 * A page whose code is fetched the first time its route is shown, so the first screen downloads only
 * the shell, home, login and setup. ConsoleLayout shows a progress indicator meanwhile.
 */
function lazyPage<K extends string, M extends Record<K, ComponentType>>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const AboutPage = lazyPage(() => import('@gatehouse/console-kit/about'), 'AboutPage');
const ChannelsPage = lazyPage(() => import('@gatehouse/console-kit/channels'), 'ChannelsPage');
const OAuthCallbackPage = lazyPage(() => import('@gatehouse/console-kit/oauth'), 'OAuthCallbackPage');
const PersonalSettingsPage = lazyPage(
  () => import('@gatehouse/console-kit/personal'),
  'PersonalSettingsPage',
);
const RegisterPage = lazyPage(() => import('@gatehouse/console-kit/register'), 'RegisterPage');
const ResetRequestPage = lazyPage(() => import('@gatehouse/console-kit/reset'), 'ResetRequestPage');
const ResetConfirmPage = lazyPage(() => import('@gatehouse/console-kit/reset'), 'ResetConfirmPage');
const SettingsPage = lazyPage(() => import('@gatehouse/console-kit/settings'), 'SettingsPage');
const AuditPage = lazyPage(() => import('@gatehouse/console-kit/security'), 'AuditPage');
const UsersPage = lazyPage(() => import('@gatehouse/console-kit/users'), 'UsersPage');
const PricingPage = lazyPage(() => import('@gatehouse/console-kit/pricing'), 'PricingPage');
const PlaygroundPage = lazyPage(() => import('@gatehouse/console-kit/playground'), 'PlaygroundPage');
const TokensPage = lazyPage(() => import('@gatehouse/console-kit/tokens'), 'TokensPage');
const RedemptionsPage = lazyPage(() => import('@gatehouse/console-kit/redemptions'), 'RedemptionsPage');
const WalletPage = lazyPage(() => import('@gatehouse/console-kit/wallet'), 'WalletPage');
const ChatPage = lazyPage(() => import('@gatehouse/console-kit/chat'), 'ChatPage');
const Chat2LinkPage = lazyPage(() => import('@gatehouse/console-kit/chat'), 'Chat2LinkPage');
const LogsPage = lazyPage(() => import('@gatehouse/console-kit/logs'), 'LogsPage');
const DrawingLogPage = lazyPage(() => import('@gatehouse/console-kit/drawing-log'), 'DrawingLogPage');
const TaskLogPage = lazyPage(() => import('@gatehouse/console-kit/task-log'), 'TaskLogPage');
const DashboardPage = lazyPage(() => import('@gatehouse/console-kit/dashboard'), 'DashboardPage');
const ReportsPage = lazyPage(() => import('@gatehouse/console-kit/reports'), 'ReportsPage');

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
          {/* The emailed reset link (docs/decisions.md#email-codes-and-reset); public, unlike the rest of /user. */}
          <Route path="user/reset" element={<ResetConfirmPage />} />
          <Route path="oauth/:provider" element={<OAuthCallbackPage />} />
          <Route path="about" element={<AboutPage />} />
          <Route path="pricing" element={<PricingPage />} />
          {/* Protected pages: visitors without a stored user go to /login. */}
          <Route element={<RequireAuth />}>
            <Route path="personal" element={<PersonalSettingsPage />} />
            <Route path="playground" element={<PlaygroundPage />} />
            <Route path="user" element={<UsersPage />} />
            <Route path="user/edit/:id" element={<UsersPage />} />
            {/* A user's own edit screen is the personal page. */}
            <Route path="user/edit" element={<Navigate to="/personal" replace />} />
            <Route path="setting" element={<SettingsPage />} />
            <Route path="audit" element={<AuditPage />} />
            <Route path="channel" element={<ChannelsPage />} />
            <Route path="channel/add" element={<ChannelsPage />} />
            <Route path="channel/edit/:id" element={<ChannelsPage />} />
            <Route path="token" element={<TokensPage />} />
            <Route path="redemption" element={<RedemptionsPage />} />
            <Route path="topup" element={<WalletPage />} />
            <Route path="chat/:id?" element={<ChatPage />} />
            <Route path="chat2link" element={<Chat2LinkPage />} />
            <Route path="log" element={<LogsPage />} />
            <Route path="midjourney" element={<DrawingLogPage />} />
            <Route path="task" element={<TaskLogPage />} />
            <Route path="detail" element={<DashboardPage />} />
            <Route path="report" element={<ReportsPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
