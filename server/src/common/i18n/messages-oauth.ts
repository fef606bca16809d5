/** Messages of the oauth area, in Chinese (the default) and English; merged into MESSAGES. */
export const OAUTH_MESSAGES = {} as const;
