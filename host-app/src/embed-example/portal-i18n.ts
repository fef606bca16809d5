import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * The portal's own translations on the GLOBAL i18next instance, the way most apps do it. The console
 * uses an instance of its own, so switching the console's language leaves this one alone.
 */
export const portalI18n = i18next;

void portalI18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false },
  resources: {
    en: {
      portal: {
        title: 'Acme intranet',
        nav: { home: 'Home', people: 'People', ai: 'AI gateway account' },
        language: 'Portal language',
        intro: 'Your account on the company AI gateway, embedded as one panel of the intranet.',
        clicks: 'Portal counter (the portal’s own Redux store): {{count}}',
        increment: 'Count',
      },
    },
    de: {
      portal: {
        title: 'Acme Intranet',
        nav: { home: 'Start', people: 'Personen', ai: 'KI-Gateway-Konto' },
        language: 'Portalsprache',
        intro: 'Ihr Konto am KI-Gateway der Firma, als ein Bereich des Intranets eingebettet.',
        clicks: 'Portalzähler (eigener Redux-Store des Portals): {{count}}',
        increment: 'Zählen',
      },
    },
  },
});
