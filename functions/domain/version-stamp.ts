/**
 * A record's new version stamp (a subscription's dataUpdate), strictly after the previous one: two changes in
 * the same millisecond stay distinct. No imports: repositories use it without bundling the schemas.
 */
export function laterThan(previous: string, now: Date | string): string {
  const stamp = typeof now === 'string' ? now : now.toISOString();
  return stamp > previous ? stamp : new Date(new Date(previous).getTime() + 1).toISOString();
}
