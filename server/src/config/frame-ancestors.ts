/**
 * Parses CSP_FRAME_ANCESTORS: origins (`https://portal.example.com`, `https://*.corp.example:8443`)
 * separated by spaces or commas, or `none`. Returns the sources, or the tokens that are not one.
 */
export function parseFrameAncestors(raw: string | undefined): { sources: string[]; invalid: string[] } {
  const sources: string[] = [];
  const invalid: string[] = [];
  for (const token of (raw ?? '').split(/[\s,]+/).filter(Boolean)) {
    const bare = token.replace(/^'(.*)'$/, '$1').toLowerCase();
    if (bare === 'self') continue; // always allowed
    if (bare === 'none') sources.push("'none'");
    else if (/^https?:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/.test(bare)) sources.push(bare);
    else invalid.push(token);
  }
  if (sources.includes("'none'") && sources.length > 1) invalid.push('none (with other origins)');
  return { sources, invalid };
}
