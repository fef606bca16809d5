import type { ChannelSnapshot } from '../channel-selector';
import type { AdapterRequest, ProviderAdapter, UpstreamCall } from '../types';

/** One planned attempt of a call: the channel, its adapter, the upstream call built for it. */
export interface Attempt {
  channel: ChannelSnapshot;
  adapter: ProviderAdapter;
  upstreamModel: string;
  areq: AdapterRequest;
  call: UpstreamCall;
  /** Frees the channel's limit slot taken for this attempt (idempotent). */
  release: () => void;
  /** The channel's first-byte timeout in milliseconds (0 or absent = the global timeouts only). */
  firstByteMs?: number;
}
