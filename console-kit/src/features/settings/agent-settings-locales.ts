import { CONSOLE_LANGUAGES, type LocaleBundles } from '../../provider/console-i18n';
import { SETTINGS_NAMESPACE, useSettingsTranslation } from './settings-locales';

/**
 * Labels of the coding-agent settings (reasoning, forwarded headers, cache writes, channel affinity),
 * merged into the settings namespace so the option panels find them as their own.
 */
export const agentSettingsLocales = {
  zh: {
    panels: {
      agents: {
        title: '编码智能体',
        description:
          'Claude Code、Codex、Gemini CLI 等客户端跨格式使用渠道时的推理强度、请求头转发与缓存写入计费',
      },
      channelAffinity: {
        title: '渠道亲和',
        description:
          '同一会话的请求在有效期内保持同一渠道和密钥，使上游的提示缓存持续命中；该渠道失败或被禁用时改用其他渠道',
      },
    },
    fields: {
      relay_effort_suffixes_enabled: '启用推理强度后缀（-low、-high 等）',
      general_setting_retry_timeout_same_channel: '超时后仍可在同一渠道重试',
      relay_forward_client_headers: '转发给同格式上游的客户端请求头',
      relay_reasoning_models: '支持推理强度的 OpenAI 格式模型（名称前缀）',
      CacheCreation1hRatio: '1 小时缓存写入倍率',
      channel_affinity_enabled: '启用渠道亲和',
      channel_affinity_ttl_seconds: '亲和有效期（秒）',
      channel_affinity_headers: '会话请求头',
      channel_affinity_rules: '亲和规则',
    },
    help: {
      relay_forward_client_headers:
        'JSON 列表，例如 ["anthropic-beta", "openai-beta"]；只转发给与客户端同格式的上游，凭据类请求头永不转发',
      relay_reasoning_models:
        'JSON 列表，例如 ["o3", "gpt-5"]；由其他格式转换来的 reasoning_effort 只发给名称以这些前缀开头的模型',
      CacheCreation1hRatio:
        'JSON 对象：模型 → 1 小时缓存写入 Token 的倍率（未设置时为 2；5 分钟写入见“缓存创建倍率”）',
      channel_affinity_ttl_seconds: '1 到 604800 秒（7 天）',
      channel_affinity_headers: 'JSON 列表：标识会话的请求头，例如 ["session_id", "x-session-id"]',
      channel_affinity_rules:
        'JSON 列表，例如 [{"model": "^claude-", "header": "x-my-session"}]：model 为正则表达式，format、mode 精确匹配，path 为路径前缀，header 或 json（JSON 路径）给出会话键',
    },
    agentValidation: {
      nameList: '第 {{index}} 项必须是非空的名称',
      headerName: '第 {{index}} 项不是合法的请求头名称',
      headerNever: '{{name}} 是凭据或传输请求头，永不转发，请去掉',
      ruleNotObject: '第 {{index}} 条规则必须是 JSON 对象',
      ruleUnknownKey:
        '第 {{index}} 条规则的 {{name}} 不是可用的字段（model、format、mode、path、header、json）',
      ruleNotString: '第 {{index}} 条规则的 {{name}} 必须是字符串',
      ruleNoKey: '第 {{index}} 条规则需要用 header 或 json 指明会话键',
      ruleBadModel: '第 {{index}} 条规则的 model 不是合法的正则表达式',
    },
  },
  en: {
    panels: {
      agents: {
        title: 'Coding agents',
        description:
          'Reasoning effort, forwarded headers and cache-write prices for Claude Code, Codex, the Gemini CLI and other clients using channels of any format',
      },
      channelAffinity: {
        title: 'Channel affinity',
        description:
          "Requests of one session keep to the same channel and key for a while, so the provider's prompt cache keeps hitting; when that channel fails or is disabled another one serves it",
      },
    },
    fields: {
      relay_effort_suffixes_enabled: 'Reasoning effort suffixes (-low, -high…)',
      general_setting_retry_timeout_same_channel: 'Retry a timed-out call on the same channel',
      relay_forward_client_headers: 'Client headers forwarded to an upstream of the same format',
      relay_reasoning_models: 'OpenAI-format models that reason (name prefixes)',
      CacheCreation1hRatio: 'One-hour cache write ratios',
      channel_affinity_enabled: 'Channel affinity',
      channel_affinity_ttl_seconds: 'Affinity lifetime (seconds)',
      channel_affinity_headers: 'Session headers',
      channel_affinity_rules: 'Affinity rules',
    },
    help: {
      relay_forward_client_headers:
        'JSON list, e.g. ["anthropic-beta", "openai-beta"]; sent only to an upstream of the client\'s own format, credential headers never',
      relay_reasoning_models:
        'JSON list, e.g. ["o3", "gpt-5"]; a reasoning_effort converted from another format goes only to models whose names start with one of these',
      CacheCreation1hRatio:
        'JSON object: model → ratio for one-hour cache write tokens (2 when unset; five-minute writes: cache creation ratios)',
      channel_affinity_ttl_seconds: '1 to 604800 seconds (7 days)',
      channel_affinity_headers:
        'JSON list of the headers that name a session, e.g. ["session_id", "x-session-id"]',
      channel_affinity_rules:
        'JSON list, e.g. [{"model": "^claude-", "header": "x-my-session"}]: model a regular expression, format and mode exact, path a path prefix, header or json (a JSON path) gives the session key',
    },
    agentValidation: {
      nameList: 'Entry {{index}} must be a non-empty name',
      headerName: 'Entry {{index}} is not a valid header name',
      headerNever: '{{name}} is a credential or transport header and is never forwarded; remove it',
      ruleNotObject: 'Rule {{index}} must be a JSON object',
      ruleUnknownKey:
        'Rule {{index}}: {{name}} is not a rule field (model, format, mode, path, header, json)',
      ruleNotString: 'Rule {{index}}: {{name}} must be a string',
      ruleNoKey: 'Rule {{index}} needs header or json to name the session key',
      ruleBadModel: 'Rule {{index}}: model is not a valid regular expression',
    },
  },
} satisfies LocaleBundles;

/** The settings translation with the agent labels merged in (once per language). */
export function useAgentSettingsTranslation() {
  const translation = useSettingsTranslation();
  const { i18n } = translation;
  for (const language of CONSOLE_LANGUAGES) {
    if (i18n.getResource(language, SETTINGS_NAMESPACE, 'panels.channelAffinity.title') === undefined) {
      i18n.addResourceBundle(language, SETTINGS_NAMESPACE, agentSettingsLocales[language], true, false);
    }
  }
  return translation;
}
