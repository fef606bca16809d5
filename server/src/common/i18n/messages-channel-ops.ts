/** Messages of the channel-ops area, in Chinese (the default) and English; merged into MESSAGES. */
export const CHANNEL_OPS_MESSAGES = {} as const;
