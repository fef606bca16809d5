import { aboutFeature } from './features/about/feature';
import { authFeature } from './features/auth/feature';
import { channelsFeature } from './features/channels/feature';
import { chatFeature } from './features/chat/feature';
import { dashboardFeature } from './features/dashboard/feature';
import { drawingLogFeature } from './features/drawing-log/feature';
import { homeFeature } from './features/home/feature';
import { logsFeature } from './features/logs/feature';
import { oauthFeature } from './features/oauth/feature';
import { personalFeature } from './features/personal/feature';
import { playgroundFeature } from './features/playground/feature';
import { pricingFeature } from './features/pricing/feature';
import { redemptionsFeature } from './features/redemptions/feature';
import { registerFeature } from './features/register/feature';
import { reportsFeature } from './features/reports/feature';
import { resetFeature } from './features/reset/feature';
import { securityFeature } from './features/security/feature';
import { settingsFeature } from './features/settings/feature';
import { setupFeature } from './features/setup/feature';
import { taskLogFeature } from './features/task-log/feature';
import { tokensFeature } from './features/tokens/feature';
import { usersFeature } from './features/users/feature';
import { walletFeature } from './features/wallet/feature';
import type { ConsoleFeature } from './lib/console-feature';

export {
  aboutFeature,
  authFeature,
  channelsFeature,
  chatFeature,
  dashboardFeature,
  drawingLogFeature,
  homeFeature,
  logsFeature,
  oauthFeature,
  personalFeature,
  playgroundFeature,
  pricingFeature,
  redemptionsFeature,
  registerFeature,
  reportsFeature,
  resetFeature,
  securityFeature,
  settingsFeature,
  setupFeature,
  taskLogFeature,
  tokensFeature,
  usersFeature,
  walletFeature,
};
export {
  lazyPage,
  NAV_SECTIONS,
  type ConsoleFeature,
  type FeatureNavEntry,
  type FeatureNavLink,
  type FeatureNavLinks,
  type FeatureRoute,
  type NavSection,
  type RouteAccess,
  type StatusSwitch,
} from './lib/console-feature';

/**
 * Every feature of the standalone console, in the order the sidebar lists their entries within each
 * section. Descriptors hold only paths, sidebar entries and page loaders: the pages' code is fetched
 * when a route is first shown (home and login excepted, which make the first screen).
 */
export const consoleFeatures: readonly ConsoleFeature[] = [
  setupFeature,
  homeFeature,
  authFeature,
  registerFeature,
  resetFeature,
  oauthFeature,
  aboutFeature,
  pricingFeature,
  playgroundFeature,
  chatFeature,
  dashboardFeature,
  tokensFeature,
  logsFeature,
  reportsFeature,
  drawingLogFeature,
  taskLogFeature,
  channelsFeature,
  redemptionsFeature,
  usersFeature,
  settingsFeature,
  securityFeature,
  walletFeature,
  personalFeature,
];
