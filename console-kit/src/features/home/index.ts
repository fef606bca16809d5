export { HomePage, DefaultLanding } from './home-page';
export { SiteTextView } from '../../components/site-text-view';
export { homeApi, useGetHomePageContentQuery } from './home-api';
export { homeLocales, HOME_NAMESPACE } from './home-locales';
export { homeFeature } from './feature';
