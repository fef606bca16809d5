export { ChatPage, chatIndexOf } from './chat-page';
export { Chat2LinkPage, firstChatLink } from './chat2link-page';
export { useChatKey, NO_TOKEN_REDIRECT_MS, type ChatKeyState } from './use-chat-key';
export {
  parseChats,
  fillChatLink,
  withKeyPrefix,
  safeChatUrl,
  chat2LinkUrl,
  serverAddressOf,
  type ChatLink,
} from '../../lib/chat-links';
export { chatLocales, CHAT_NAMESPACE } from './chat-locales';
export { chatFeature } from './feature';
