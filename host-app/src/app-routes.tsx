import { Route, Routes } from 'react-router';
import { AboutPage } from '@gatehouse/console-kit/about';
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
          {/* Protected pages: visitors without a stored user go to /login. */}
          <Route element={<RequireAuth />}>
            <Route path="personal" element={<PersonalSettingsPage />} />
            <Route path="user" element={<UsersPage />} />
            <Route path="setting" element={<SettingsPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
