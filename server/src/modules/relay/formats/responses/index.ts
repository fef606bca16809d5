/** OpenAI Responses API ⇄ OpenAI chat completions (the relay's hub format). */
export { responsesToOpenAIRequest, openAIToResponsesRequest } from './request';
export { openAIToResponsesResponse, responsesToOpenAIResponse } from './response';
export { OpenAIToResponsesStream, ResponsesToOpenAIStream } from './stream';
export { responsesUsage, responsesUsageToOpenAI, openAIUsageToResponses } from './usage';
