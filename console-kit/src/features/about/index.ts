export { AboutPage } from './about-page';
export { aboutApi, useGetAboutQuery } from './about-api';
export { aboutLocales, ABOUT_NAMESPACE } from './about-locales';
export { aboutFeature } from './feature';
