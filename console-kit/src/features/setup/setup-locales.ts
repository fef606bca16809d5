import type { LocaleBundles } from '../../provider/console-i18n';

export const SETUP_NAMESPACE = 'setup';

export const setupLocales = {
  zh: {
    title: '系统初始化',
    subtitle: '欢迎使用！请完成以下设置以初始化系统。',
    database: {
      sqliteTitle: '数据库警告',
      sqlite:
        '您正在使用 SQLite 数据库。如果在容器中运行，请把数据库文件映射到持久化存储，否则容器重启后所有数据都会丢失。生产环境建议使用 MySQL 或 PostgreSQL 数据库。',
    },
    admin: {
      title: '管理员账号',
      username: '用户名',
      password: '密码',
      confirmPassword: '确认密码',
      passwordHint: '至少 8 个字符',
      usernameHint: '最多 12 个字符',
      exists: '管理员账号已经初始化，请继续设置其他参数。',
    },
    mode: {
      title: '使用模式',
      external: '对外运营模式',
      self: '自用模式',
      demo: '演示站点模式',
      explain: '模式说明',
      close: '关闭',
      externalDescription: '默认模式。按调用计量用量并扣除额度，每个模型都需要先设置价格（倍率）才能使用。',
      selfDescription: '适合个人使用。弱化价格设置，未设置价格的模型也可以直接使用。',
      demoDescription:
        '作为演示站点对外展示：顶栏显示“演示站点”标记，让访客知道这是演示；功能与对外运营模式相同。',
    },
    validation: {
      usernameRequired: '请输入管理员用户名',
      usernameTooLong: '用户名最多 12 个字符',
      passwordTooShort: '密码长度至少为 8 个字符',
      passwordMismatch: '两次输入的密码不一致',
    },
    submit: '初始化系统',
    submitting: '正在初始化…',
    success: '系统初始化成功，正在跳转…',
    loadFailed: '获取初始化状态失败',
    requestFailed: '系统初始化失败，请重试',
    failed: '初始化失败，请重试',
  },
  en: {
    title: 'System setup',
    subtitle: 'Welcome! Complete the settings below to initialize the system.',
    database: {
      sqliteTitle: 'Database warning',
      sqlite:
        'You are using a SQLite database. When running in a container, map the database file to persistent storage, or all data is lost when the container restarts. For production, MySQL or PostgreSQL is recommended.',
    },
    admin: {
      title: 'Administrator account',
      username: 'Username',
      password: 'Password',
      confirmPassword: 'Confirm password',
      passwordHint: 'At least 8 characters',
      usernameHint: 'At most 12 characters',
      exists: 'The administrator account is already initialized; continue with the other settings.',
    },
    mode: {
      title: 'Usage mode',
      external: 'External operation',
      self: 'Self-use',
      demo: 'Demo site',
      explain: 'About the modes',
      close: 'Close',
      externalDescription:
        'The default. Every call is metered and charged to the quota; each model needs a price (ratio) before it can be used.',
      selfDescription:
        'For personal use. Pricing is de-emphasised: models without a price can be used as they are.',
      demoDescription:
        'Shows the system publicly as a demo: the top bar carries a Demo site badge so visitors know; every feature works as in external operation.',
    },
    validation: {
      usernameRequired: 'Please enter the admin username',
      usernameTooLong: 'The username may have at most 12 characters',
      passwordTooShort: 'Password must be at least 8 characters long',
      passwordMismatch: 'The two passwords entered do not match',
    },
    submit: 'Initialize system',
    submitting: 'Initializing…',
    success: 'System initialized successfully, redirecting…',
    loadFailed: 'Failed to get setup status',
    requestFailed: 'System initialization failed, please retry',
    failed: 'Initialization failed, please retry',
  },
} satisfies LocaleBundles;
