import { Route, Routes } from 'react-router';
import { LoginPage } from '@gatehouse/console-kit/auth';
import { SetupGuard, SetupPage } from '@gatehouse/console-kit/setup';
import { ConsoleLayout, NotFoundPage } from '@gatehouse/console-kit/shell';
import { HomePage } from './home-page';

/** The host owns the routes; each feature of the kit is mounted here as it is built. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<SetupGuard />}>
        <Route element={<ConsoleLayout />}>
          <Route index element={<HomePage />} />
          <Route path="setup" element={<SetupPage />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
