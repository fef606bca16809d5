import type { ReactElement } from 'react';
import { Navigate, Route } from 'react-router';
import type { ConsoleFeature, FeatureRoute, RouteAccess } from '../lib/console-feature';
import { RequireAdmin, RequireAuth } from './route-guards';

function routeElement(feature: ConsoleFeature, route: FeatureRoute): ReactElement {
  const key = `${feature.id}:${route.path ?? '/'}`;
  const Page = route.page;
  const element = route.redirectTo ? <Navigate to={route.redirectTo} replace /> : Page ? <Page /> : null;
  return route.path === undefined ? (
    <Route key={key} index element={element} />
  ) : (
    <Route key={key} path={route.path} element={element} />
  );
}

/**
 * The routes of the given features, to put inside `<Routes>` (or a layout route): public pages as they
 * are, pages for signed-in users behind `RequireAuth`, admin pages behind `RequireAdmin`. A portal that
 * mounts some features passes only their descriptors; the sidebar draws from the same list.
 */
export function featureRoutes(features: readonly ConsoleFeature[]): ReactElement[] {
  const withAccess = (access: RouteAccess) =>
    features.flatMap((feature) =>
      feature.routes.filter((route) => route.access === access).map((route) => routeElement(feature, route)),
    );
  const signedIn = withAccess('signed-in');
  const admin = withAccess('admin');
  return [
    ...withAccess('public'),
    ...(signedIn.length > 0
      ? [
          <Route key="signed-in" element={<RequireAuth />}>
            {signedIn}
          </Route>,
        ]
      : []),
    ...(admin.length > 0
      ? [
          <Route key="admin" element={<RequireAdmin />}>
            {admin}
          </Route>,
        ]
      : []),
  ];
}
