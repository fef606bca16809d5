import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import type { ConsoleRuntime } from './console-runtime';

/**
 * When the host renders the provider inside its router, redirects decided by the API layer (401 →
 * login) become client-side navigations that respect the router's basename instead of full reloads.
 */
export function RouterNavigateBridge({ runtime }: { runtime: ConsoleRuntime }): null {
  const navigate = useNavigate();
  useEffect(
    () =>
      runtime.attachNavigator((to) => {
        void navigate(to);
      }),
    [navigate, runtime],
  );
  return null;
}
