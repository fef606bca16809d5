import { Route, Routes } from 'react-router';
import { consoleFeatures } from '@gatehouse/console-kit/features';
import { SetupGuard } from '@gatehouse/console-kit/setup';
import { ConsoleLayout, featureRoutes, NotFoundPage } from '@gatehouse/console-kit/shell';

/**
 * The features the standalone console mounts. Each descriptor gives its routes (paths, who may open
 * them, the page, fetched the first time its route is shown unless it belongs to the first screen:
 * home and login) and its sidebar entries; the routes below and the sidebar both come from
 * this one list.
 */
export const hostFeatures = consoleFeatures;

/** The host owns the routes: setup first, then the console layout around every feature's routes. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<SetupGuard />}>
        <Route element={<ConsoleLayout features={hostFeatures} />}>
          {featureRoutes(hostFeatures)}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
