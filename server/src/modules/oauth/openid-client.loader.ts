/**
 * openid-client 6 is published as an ES module only. The build (CommonJS on Node ≥ 20.19) could
 * `require` it, but Jest's CommonJS runtime cannot, and both compilers turn a literal `import()` into
 * `require`. A direct `eval` keeps a native dynamic import, which works in both (Jest runs with
 * --experimental-vm-modules). The module is loaded once.
 */
export type OpenIdClient = typeof import('openid-client');

let loaded: Promise<OpenIdClient> | undefined;

export function openidClient(): Promise<OpenIdClient> {
  loaded ??= eval('import("openid-client")') as Promise<OpenIdClient>;
  return loaded;
}
