import { createTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { MemoryRouter, Navigate, Route, Routes } from 'react-router';
import { GatehouseConsole } from '@gatehouse/console-kit';
import { LoginPage } from '@gatehouse/console-kit/auth';
import { personalFeature } from '@gatehouse/console-kit/features';
import { featureRoutes, PageSuspense } from '@gatehouse/console-kit/shell';
import { incremented, type PortalState } from './portal-store';

/** The portal's brand; the console derives its light and dark themes from it. */
const portalTheme = createTheme({
  palette: { primary: { main: '#8a3b12' }, secondary: { main: '#2f5d50' } },
  shape: { borderRadius: 6 },
});

/** Only the prefixed keys are the console's; the portal's own localStorage stays as it is. */
export const EMBED_STORAGE_PREFIX = 'acme-ai:';

/**
 * The console features this panel mounts: only the personal settings. Their routes come from the
 * kit's descriptors (the page is fetched when first shown); a portal passes the features it wants.
 */
const panelFeatures = [personalFeature];

/**
 * One console panel (personal settings) inside a page that is not the console: the portal's header,
 * navigation, CSS, translations and Redux store are its own. The panel brings a provider and a small
 * in-memory router of its own, so it needs no routes of the portal and signs in inside the panel.
 */
export function PortalPage() {
  const { t, i18n } = useTranslation('portal');
  const count = useSelector((state: PortalState) => state.counter.count);
  const dispatch = useDispatch();

  return (
    <>
      <header className="portal-header">
        <h1 data-testid="portal-title">{t('title')}</h1>
        <label>
          {t('language')}{' '}
          <select
            data-testid="portal-language"
            value={i18n.language}
            onChange={(event) => void i18n.changeLanguage(event.target.value)}
          >
            <option value="en">English</option>
            <option value="de">Deutsch</option>
          </select>
        </label>
      </header>
      <div className="portal-layout">
        <nav className="portal-nav">
          <a href="#home">{t('nav.home')}</a>
          <a href="#people">{t('nav.people')}</a>
          <a href="#ai">{t('nav.ai')}</a>
        </nav>
        <main>
          <section className="portal-card">
            <p data-testid="portal-intro">{t('intro')}</p>
            <p>
              <span data-testid="portal-counter">{t('clicks', { count })}</span>{' '}
              <button type="button" className="portal-button" onClick={() => dispatch(incremented())}>
                {t('increment')}
              </button>
            </p>
          </section>
          <section className="portal-panel" data-testid="gatehouse-panel">
            <MemoryRouter initialEntries={['/personal']}>
              <GatehouseConsole storagePrefix={EMBED_STORAGE_PREFIX} theme={portalTheme}>
                <PageSuspense>
                  <Routes>
                    <Route path="login" element={<LoginPage redirectTo="/personal" />} />
                    {featureRoutes(panelFeatures)}
                    <Route path="*" element={<Navigate to="/personal" replace />} />
                  </Routes>
                </PageSuspense>
              </GatehouseConsole>
            </MemoryRouter>
          </section>
        </main>
      </div>
    </>
  );
}
