import { guardHolds, type PositionRecord, type Transition } from '../../functions/domain/positions/index.ts';

/**
 * The one writer of positions (functions/positions/repository.ts applyTransition) on a map, for the use
 * cases' tests: a transition is written only when the stored position passes the transition's own guard
 * (domain guards.ts guardHolds, the rule the repository turns into its ConditionExpression); 'replace' stores
 * `after`, 'patch' sets what changed and removes what went, moving the stored version on when `after`'s moved.
 */
export function applyToStored(stored: PositionRecord | null, transition: Transition): PositionRecord | null {
  if (!guardHolds(transition.guard, stored)) return null;
  if (transition.write === 'replace' || !transition.before || !stored) return structuredClone(transition.after);
  const { before, after } = transition;
  const next: Record<string, unknown> = { ...stored };
  const was = before as unknown as Record<string, unknown>;
  for (const [name, value] of Object.entries(after))
    if (name !== 'version' && value !== undefined && JSON.stringify(value) !== JSON.stringify(was[name]))
      next[name] = structuredClone(value);
  for (const name of [
    ...Object.keys(before).filter(
      (n) => was[n] !== undefined && (after as unknown as Record<string, unknown>)[n] === undefined,
    ),
    ...(transition.remove ?? []),
  ])
    delete next[name];
  if (after.version !== before.version) next.version = stored.version + 1;
  return next as unknown as PositionRecord;
}

/** applyTransition and applyTransitions over a map keyed by `keyOf` (the real repository's key: call, month, citizen). */
export function memoryPositionWriter(all: Map<string, PositionRecord>, keyOf: (position: PositionRecord) => string) {
  const applyTransition = async (transition: Transition) => {
    const key = keyOf(transition.after);
    const next = applyToStored(all.get(key) ?? null, transition);
    if (!next) return false;
    all.set(key, next);
    return true;
  };
  return {
    applyTransition,
    async applyTransitions(transitions: readonly Transition[], onWritten?: (count: number) => Promise<unknown>) {
      const written: Transition[] = [];
      for (const transition of transitions) {
        if (await applyTransition(transition)) written.push(transition);
        await onWritten?.(1);
      }
      return written;
    },
  };
}
