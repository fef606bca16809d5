/** The Tencent Cloud key of a Hunyuan channel: "APPID|SecretId|SecretKey" or "SecretId|SecretKey". */

export interface TencentKey {
  appId?: string;
  secretId: string;
  secretKey: string;
}

export function parseTencentKey(key: string): TencentKey {
  const parts = key
    .trim()
    .split('|')
    .map((part) => part.trim());
  if (parts.length === 3 && parts.every((part) => part !== '')) {
    return { appId: parts[0], secretId: parts[1], secretKey: parts[2] };
  }
  if (parts.length === 2 && parts.every((part) => part !== ''))
    return { secretId: parts[0], secretKey: parts[1] };
  throw new Error('The Tencent key must be "APPID|SecretId|SecretKey" or "SecretId|SecretKey"');
}
