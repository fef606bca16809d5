/** Messages of the wallet area, in Chinese (the default) and English; merged into MESSAGES. */
export const WALLET_MESSAGES = {} as const;
