/** Channel types (reference data): id → name and the well-known models of each provider. */
export interface ChannelTypeInfo {
  name: string;
  baseUrl: string;
  models: string[];
}

const OPENAI_MODELS = [
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-5',
  'gpt-5-mini',
  'gpt-5-nano',
  'o1',
  'o3',
  'o3-mini',
  'o4-mini',
  'gpt-3.5-turbo',
  'gpt-4',
  'gpt-4-turbo',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'text-embedding-ada-002',
  'whisper-1',
  'tts-1',
  'tts-1-hd',
  'dall-e-3',
  'omni-moderation-latest',
];
const CLAUDE_MODELS = [
  'claude-3-5-haiku',
  'claude-3-5-sonnet',
  'claude-3-7-sonnet',
  'claude-sonnet-4',
  'claude-opus-4-5',
];
const GEMINI_MODELS = ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.0-flash', 'text-embedding-004'];
const MJ_MODELS = [
  'mj_imagine',
  'mj_variation',
  'mj_reroll',
  'mj_blend',
  'mj_modal',
  'mj_zoom',
  'mj_shorten',
  'mj_pan',
  'mj_describe',
  'mj_upscale',
  'mj_upload',
  'swap_face',
];

const t = (name: string, baseUrl: string, models: string[] = []): ChannelTypeInfo => ({
  name,
  baseUrl,
  models,
});

export const CHANNEL_TYPES: Record<number, ChannelTypeInfo> = {
  1: t('OpenAI', 'https://api.openai.com', OPENAI_MODELS),
  2: t('Midjourney Proxy', '', MJ_MODELS),
  3: t('Azure OpenAI', '', OPENAI_MODELS),
  4: t('Ollama', 'http://localhost:11434', ['llama3.1', 'qwen2.5', 'mistral']),
  5: t('Midjourney Proxy Plus', '', MJ_MODELS),
  6: t('OpenAI-Max', ''),
  7: t('OhMyGPT', ''),
  8: t('Custom (OpenAI-compatible)', ''),
  9: t('AILS', ''),
  10: t('AI Proxy', ''),
  11: t('PaLM', ''),
  12: t('API2GPT', ''),
  13: t('AIGC2D', ''),
  14: t('Anthropic', 'https://api.anthropic.com', CLAUDE_MODELS),
  15: t('Baidu (legacy)', 'https://aip.baidubce.com', ['ERNIE-4.0-8K', 'ERNIE-3.5-8K', 'ERNIE-Speed-128K']),
  16: t('Zhipu (legacy)', 'https://open.bigmodel.cn', [
    'chatglm_turbo',
    'chatglm_pro',
    'chatglm_std',
    'chatglm_lite',
  ]),
  17: t('Alibaba DashScope', 'https://dashscope.aliyuncs.com', [
    'qwen-turbo',
    'qwen-plus',
    'qwen-max',
    'text-embedding-v3',
  ]),
  18: t('iFlytek Spark', '', [
    'SparkDesk-v1.1',
    'SparkDesk-v2.1',
    'SparkDesk-v3.1',
    'SparkDesk-v3.5',
    'SparkDesk-v4.0',
  ]),
  19: t('360', ''),
  20: t('OpenRouter', 'https://openrouter.ai/api', [
    'openai/gpt-4o',
    'anthropic/claude-sonnet-4',
    'google/gemini-2.5-pro',
  ]),
  21: t('AI Proxy Library', ''),
  22: t('FastGPT', ''),
  23: t('Tencent Hunyuan', 'https://hunyuan.tencentcloudapi.com', [
    'hunyuan-lite',
    'hunyuan-standard',
    'hunyuan-pro',
  ]),
  24: t('Google Gemini', 'https://generativelanguage.googleapis.com', GEMINI_MODELS),
  25: t('Moonshot', 'https://api.moonshot.cn', ['moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k']),
  26: t('Zhipu v4', 'https://open.bigmodel.cn', ['glm-4', 'glm-4-flash', 'glm-4v', 'embedding-3']),
  27: t('Perplexity', 'https://api.perplexity.ai', ['sonar', 'sonar-pro', 'sonar-reasoning']),
  31: t('01.AI (Lingyiwanwu)', 'https://api.lingyiwanwu.com', ['yi-large', 'yi-medium', 'yi-lightning']),
  33: t('AWS Bedrock', '', CLAUDE_MODELS),
  34: t('Cohere', 'https://api.cohere.ai', [
    'command-r',
    'command-r-plus',
    'rerank-english-v3.0',
    'rerank-multilingual-v3.0',
  ]),
  35: t('MiniMax', 'https://api.minimax.chat', ['abab6.5-chat', 'abab6.5s-chat', 'abab5.5-chat']),
  36: t('Suno API', '', ['suno_music', 'suno_lyrics']),
  37: t('Dify', 'https://api.dify.ai', ['dify']),
  38: t('Jina', 'https://api.jina.ai', ['jina-embeddings-v3', 'jina-reranker-v2-base-multilingual']),
  39: t('Cloudflare Workers AI', 'https://api.cloudflare.com', [
    '@cf/meta/llama-3.1-8b-instruct',
    '@cf/baai/bge-base-en-v1.5',
  ]),
  40: t('SiliconFlow', 'https://api.siliconflow.cn', [
    'deepseek-ai/DeepSeek-V3',
    'Qwen/Qwen2.5-72B-Instruct',
    'BAAI/bge-m3',
  ]),
  41: t('Google Vertex AI', '', [...GEMINI_MODELS, ...CLAUDE_MODELS]),
  42: t('Mistral', 'https://api.mistral.ai', [
    'mistral-large-latest',
    'mistral-small-latest',
    'codestral-latest',
    'mistral-embed',
  ]),
  43: t('DeepSeek', 'https://api.deepseek.com', ['deepseek-chat', 'deepseek-reasoner']),
  44: t('MokaAI', 'https://api.moka.ai', ['m3e-base', 'm3e-large', 'm3e-small']),
  45: t('Volcengine Ark (Doubao)', 'https://ark.cn-beijing.volces.com', [
    'doubao-pro-32k',
    'doubao-lite-32k',
    'doubao-embedding',
  ]),
  46: t('Baidu Qianfan v2', 'https://qianfan.baidubce.com', [
    'ernie-4.0-8k',
    'ernie-3.5-8k',
    'ernie-speed-128k',
  ]),
  47: t('Xinference', ''),
  48: t('xAI', 'https://api.x.ai', ['grok-3', 'grok-3-mini', 'grok-4']),
};

/** `GET /api/models`: {"<type>": [models]}. */
export function modelsByType(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [id, info] of Object.entries(CHANNEL_TYPES)) out[id] = info.models;
  return out;
}
