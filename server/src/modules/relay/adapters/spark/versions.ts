/**
 * Spark API versions: the channel's `other` names one (v2.1 when empty). Each version has its
 * websocket path and its `domain` parameter.
 */

interface SparkVersion {
  path: string;
  domain: string;
}

const VERSIONS: Record<string, SparkVersion> = {
  'v1.1': { path: '/v1.1/chat', domain: 'general' },
  'v2.1': { path: '/v2.1/chat', domain: 'generalv2' },
  'v3.1': { path: '/v3.1/chat', domain: 'generalv3' },
  'v3.5': { path: '/v3.5/chat', domain: 'generalv3.5' },
  'v4.0': { path: '/v4.0/chat', domain: '4.0Ultra' },
  'pro-128k': { path: '/chat/pro-128k', domain: 'pro-128k' },
  'max-32k': { path: '/chat/max-32k', domain: 'max-32k' },
};

export const DEFAULT_SPARK_VERSION = 'v2.1';

export function sparkVersion(other: string): string {
  return other.trim() || DEFAULT_SPARK_VERSION;
}

function lookup(version: string): SparkVersion {
  const known = VERSIONS[version];
  if (!known)
    throw new Error(`Unknown Spark version "${version}" (known: ${Object.keys(VERSIONS).join(', ')})`);
  return known;
}

export function sparkDomain(version: string): string {
  return lookup(version).domain;
}

export function sparkPath(version: string): string {
  return lookup(version).path;
}
