import type { LocaleBundles } from '../../provider/console-i18n';

export const ABOUT_NAMESPACE = 'about';

export const aboutLocales = {
  zh: {
    title: '关于',
    empty: '管理员暂时未设置任何关于内容',
    hint: '可在“系统设置 → 其他设置”中设置关于内容，支持 HTML 与 Markdown，也可以填写一个网址。',
    product: '{{product}} 是一个自托管的 AI 模型 API 网关，以 MIT 许可证开源。',
    version: '版本：{{version}}',
    frameTitle: '关于',
    loadFailed: '加载关于内容失败',
  },
  en: {
    title: 'About',
    empty: 'The administrator has not set any about content yet',
    hint: 'About content can be set in System settings → Other settings: HTML and Markdown are supported, or an address.',
    product: '{{product}} is a self-hosted gateway for AI model APIs, open source under the MIT License.',
    version: 'Version: {{version}}',
    frameTitle: 'About',
    loadFailed: 'Failed to load the about content',
  },
} satisfies LocaleBundles;
