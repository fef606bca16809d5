/** Messages of the tasks area, in Chinese (the default) and English; merged into MESSAGES. */
export const TASKS_MESSAGES = {
  task_param_invalid: { zh: '参数 {field} 无效：{reason}', en: 'Invalid {field}: {reason}' },
  task_bad_body: { zh: '请求体无效：{reason}', en: 'Invalid request body: {reason}' },
  task_drawing_disabled: { zh: '管理员未开启绘图功能', en: 'Drawing is disabled by the administrator' },
  task_tasks_disabled: {
    zh: '管理员未开启异步任务功能',
    en: 'Async tasks are disabled by the administrator',
  },
  task_not_found: { zh: '任务不存在', en: 'No such task' },
  task_too_many_ids: { zh: '一次最多查询 {max} 个任务', en: 'At most {max} tasks per query' },
  task_price_required: {
    zh: '模型 {model} 按次计费，请管理员为其设置固定价格（ModelPrice）',
    en: 'The model {model} is billed per call: the administrator must give it a fixed price (ModelPrice)',
  },
  task_origin_not_success: {
    zh: '原任务尚未成功，无法执行该操作',
    en: 'The original task has not succeeded; this action is not possible yet',
  },
  task_origin_channel_unavailable: {
    zh: '该任务所属渠道已被禁用或删除',
    en: 'The channel of this task is disabled or deleted',
  },
  task_upstream_failed: { zh: '上游服务出错：{reason}', en: 'Upstream error: {reason}' },
  task_upstream_invalid: {
    zh: '上游返回了无法识别的内容',
    en: 'The upstream answered with something that is not a task answer',
  },
  task_save_failed: {
    zh: '保存任务失败，额度已退回',
    en: 'The task could not be saved; the quota was refunded',
  },
  task_image_disabled: { zh: '未开启图片转发', en: 'Image forwarding is disabled' },
  task_image_unavailable: { zh: '图片获取失败', en: 'The image could not be fetched' },
  task_notify_unauthorized: { zh: '回调地址签名无效', en: 'Invalid callback signature' },
} as const;
