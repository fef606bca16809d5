export { ConsoleLayout } from './console-layout';
export { TopBar, TOP_BAR_HEIGHT, DEFAULT_SYSTEM_NAME } from './top-bar';
export { NotFoundPage } from './not-found-page';
