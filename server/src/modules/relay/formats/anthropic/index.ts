export { anthropicToOpenAIRequest, openAIToAnthropicRequest, type OpenAIToAnthropicOptions } from './request';
export { anthropicToOpenAIResponse, openAIToAnthropicResponse } from './response';
export { AnthropicToOpenAIStream, OpenAIToAnthropicStream } from './stream';
export { anthropicUsage, anthropicUsageFromOpenAI, openAIUsageFromCounts } from './usage';
