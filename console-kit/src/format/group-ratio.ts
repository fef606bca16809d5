/** The colour of a group-ratio tag (spec): above 5 red, above 3 orange, above 1 blue, else green. */
export function groupRatioColor(ratio: number): 'error' | 'warning' | 'primary' | 'success' {
  if (ratio > 5) return 'error';
  if (ratio > 3) return 'warning';
  if (ratio > 1) return 'primary';
  return 'success';
}
