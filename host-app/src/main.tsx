import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { GatehouseConsole } from '@gatehouse/console-kit';
import { AppRoutes } from './app-routes';

const container = document.getElementById('root');
if (!container) {
  throw new Error('index.html has no #root element');
}

createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      <GatehouseConsole>
        <AppRoutes />
      </GatehouseConsole>
    </BrowserRouter>
  </StrictMode>,
);
