/** The email domain whitelist editor's rules (the server checks the same on save). */
export const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function parseDomainList(value: string): string[] {
  return value
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
}

export type DomainProblem = 'invalid' | 'duplicate';

/** Adds a domain to the list: lower-cased, trimmed, a leading '@' dropped. */
export function addDomain(
  list: readonly string[],
  input: string,
): { list: string[] } | { problem: DomainProblem } {
  const domain = input.trim().toLowerCase().replace(/^@/, '');
  if (!DOMAIN_PATTERN.test(domain)) {
    return { problem: 'invalid' };
  }
  if (list.includes(domain)) {
    return { problem: 'duplicate' };
  }
  return { list: [...list, domain] };
}
