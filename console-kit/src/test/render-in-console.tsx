import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { GatehouseConsole } from '../provider/gatehouse-console';
import type { ConsoleLanguage } from '../provider/console-i18n';

/** Renders the current path so tests can assert where a page navigated to. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

export interface RenderInConsoleOptions {
  /** The URL the router starts at (may carry a query). */
  path?: string;
  /** History state of the starting entry (what a redirecting guard leaves behind). */
  state?: unknown;
  /** The route pattern the page is mounted on; any other location renders a LocationProbe. */
  route?: string;
  language?: ConsoleLanguage;
}

export function renderInConsole(page: ReactElement, options: RenderInConsoleOptions = {}) {
  const { path = '/', language = 'en' } = options;
  const route = options.route ?? path;
  return render(
    <MemoryRouter
      initialEntries={[options.state === undefined ? path : { pathname: path, state: options.state }]}
    >
      <GatehouseConsole language={language}>
        <Routes>
          <Route path={route} element={page} />
          <Route path="*" element={<LocationProbe />} />
        </Routes>
      </GatehouseConsole>
    </MemoryRouter>,
  );
}
