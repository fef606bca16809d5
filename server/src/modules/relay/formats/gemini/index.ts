/** Google Gemini generateContent ⇄ OpenAI chat (the relay's hub format). */
export { geminiToOpenAIRequest, openAIToGeminiRequest, geminiSafetySettings, guessMimeType } from './request';
export type { OpenAIToGeminiOptions } from './request';
export { GEMINI_HARM_CATEGORIES, GEMINI_SKIP_SIGNATURE } from './request';
export {
  geminiToOpenAIResponse,
  openAIToGeminiResponse,
  geminiFinishReason,
  openAIFinishReason,
} from './response';
export { GeminiToOpenAIStream, OpenAIToGeminiStream } from './stream';
export { geminiUsage, geminiUsageToOpenAI, openAIUsageToGemini } from './usage';
export {
  openAIEmbeddingsToGeminiRequest,
  geminiEmbedToOpenAIRequest,
  geminiEmbedToOpenAIResponse,
  openAIEmbeddingsToGeminiResponse,
  embeddingsRequestFor,
  embeddingsAnswerFor,
} from './embeddings';
export { toGeminiSchema, fromGeminiSchema } from './schema';
