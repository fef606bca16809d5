/**
 * The relay's public face: the only file other modules import from the relay. Everything else under
 * relay/ is the relay's own (an ESLint rule keeps it so).
 */
export { RelayModule } from './relay.module';
export { RelayRoutes, RELAY_BODY_LIMIT } from './relay-routes';
export { RELAY_ROUTES } from './route-table';
export type { RelayRoute } from './route-table';
export { RelayService } from './relay.service';
export { RealtimeRelay } from './realtime/realtime-relay.service';
export { RelayAdmission } from './lifecycle/admission';
export type { Caller } from './lifecycle/admission';
export { Failover } from './lifecycle/failover';
export type { FailoverPlan, FailoverResult } from './lifecycle/failover';
export { clientType } from './lifecycle/call-price';
export { Spending, SpendTicket, taskEntry, budgetParty } from './lifecycle/spend';
export type { FundingSource, SpendEntry } from './lifecycle/spend';
export { UpstreamClient } from './upstream/upstream-client';
export { RelayCacheService } from './relay-cache.service';
export type { TokenSnapshot } from './relay-cache.service';
export { ChannelHealthService } from './channel-health.service';
export { ChannelTestService } from './channel-test.service';
export { RateLimitService } from './rate-limit.service';
export { selectChannel } from './channel-selector';
export type { ChannelSnapshot } from './channel-selector';
export { RelayError, relayFail, sanitizeUpstreamText, toRelayError, errorBody } from './errors';
export type { InboundRequest, RelayContext } from './relay-context';
export { apiRoot, versionPrefix } from './adapters/openai/paths';
