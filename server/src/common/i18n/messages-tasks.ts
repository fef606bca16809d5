/** Messages of the tasks area, in Chinese (the default) and English; merged into MESSAGES. */
export const TASKS_MESSAGES = {} as const;
