import type { NamedCount, OtherCount } from '@skald/contracts/api';

/**
 * A breakdown chart's rows: the server answers its top rows and sums the other names in
 * an other bucket, so the chart draws them as one 'Other (n)' bar and the bars still add up to the total.
 */
export function breakdownRows(rows: readonly NamedCount[], other: OtherCount): NamedCount[] {
  if (other.names === 0) return [...rows];
  return [...rows, { name: `Other (${other.names})`, text: other.text, photo: other.photo }];
}

/** The line under a chart that says what the Other bar holds; null when every name has its own bar. */
export function hiddenNote(shown: number, other: OtherCount, noun: string): string | null {
  if (other.names === 0) return null;
  const verb = other.names === 1 ? 'is' : 'are';
  return `Top ${shown} of ${shown + other.names} ${noun}; the other ${other.names} ${verb} summed in "Other".`;
}
