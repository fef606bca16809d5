/**
 * Fixtures for adapter unit tests: an AdapterRequest with neutral settings, overridable in part, and
 * helpers reading an UpstreamCall's JSON body and a converter's OpenAI chunks.
 */
import type { AdapterRequest, AdapterSettings, ChannelTarget, SseEvent, UpstreamCall } from '../types';

export function neutralSettings(overrides: Partial<AdapterSettings> = {}): AdapterSettings {
  return {
    geminiSafetySettings: {},
    geminiVersionSettings: {},
    geminiThinkingAdapterEnabled: false,
    geminiThinkingBudgetPercentage: 0.6,
    claudeModelHeaders: {},
    claudeDefaultMaxTokens: {},
    claudeThinkingAdapterEnabled: false,
    claudeThinkingBudgetPercentage: 0.8,
    geminiSupportedImagineModels: [],
    ...overrides,
  };
}

export interface RequestOverrides extends Partial<Omit<AdapterRequest, 'channel' | 'settings'>> {
  channel?: Partial<ChannelTarget>;
  settings?: Partial<AdapterSettings>;
}

export function adapterRequest(overrides: RequestOverrides = {}): AdapterRequest {
  const { channel, settings, ...rest } = overrides;
  return {
    mode: 'chat',
    model: 'test-model',
    stream: false,
    body: {},
    ...rest,
    channel: {
      id: 7,
      type: 1,
      baseUrl: 'https://upstream.test',
      key: 'sk-test',
      other: '',
      organization: '',
      ...channel,
    },
    settings: neutralSettings(settings),
  };
}

export function bodyOf(call: UpstreamCall): unknown {
  if (typeof call.body !== 'string') throw new Error('the call has no JSON body');
  return JSON.parse(call.body) as unknown;
}

/** The parsed data of converted stream events. */
export function chunksOf(events: SseEvent[]): unknown[] {
  return events.map((event) => JSON.parse(event.data) as unknown);
}
