export { PlaygroundPage, DEFAULT_PLAYGROUND_MODEL } from './playground-page';
export {
  playgroundApi,
  useGetPlaygroundGroupsQuery,
  useGetPlaygroundModelsQuery,
  type SelfGroups,
} from './playground-api';
export { playgroundLocales, PLAYGROUND_NAMESPACE } from './playground-locales';
export {
  buildChatRequest,
  chatReducer,
  initialChatState,
  parseMaxTokens,
  readChatStream,
  ChatStreamError,
  type ChatMessage,
  type ChatRequest,
  type ChatState,
  type MessageStatus,
  type PlaygroundSettings,
} from './playground-chat';
export { playgroundFeature } from './feature';
