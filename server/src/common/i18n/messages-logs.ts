/** Messages of the logs area, in Chinese (the default) and English; merged into MESSAGES. */
export const LOGS_MESSAGES = {} as const;
