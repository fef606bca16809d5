import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { portalI18n } from './portal-i18n';
import { PortalPage } from './portal-page';
import { portalStore } from './portal-store';
import './portal.css';

const container = document.getElementById('portal-root');
if (!container) {
  throw new Error('embed-example.html has no #portal-root element');
}

createRoot(container).render(
  <StrictMode>
    <Provider store={portalStore}>
      <I18nextProvider i18n={portalI18n}>
        <PortalPage />
      </I18nextProvider>
    </Provider>
  </StrictMode>,
);
