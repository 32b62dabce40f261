import {
  guardHolds,
  noPositionsListener,
  patchOf,
  type PositionRecord,
  type PositionsChanged,
  type Transition,
} from '../../functions/domain/positions/index.ts';

/**
 * The one writer of positions (functions/positions/repository.ts applyTransition) on a map, for the use
 * cases' tests, on the domain's own rules: a transition is written only when the stored position passes the
 * transition's guard (guards.ts guardHolds, the rule the repository turns into its ConditionExpression);
 * 'replace' stores `after`, 'patch' applies the domain's patchOf (what the repository's UpdateExpression writes).
 */
export function applyToStored(stored: PositionRecord | null, transition: Transition): PositionRecord | null {
  if (!guardHolds(transition.guard, stored)) return null;
  if (transition.write === 'replace' || !transition.before || !stored) return structuredClone(transition.after);
  const { set, remove, movesVersion } = patchOf({ ...transition, before: transition.before });
  const next: Record<string, unknown> = { ...stored, ...structuredClone(set) };
  for (const name of remove) delete next[name];
  if (movesVersion) next.version = stored.version + 1;
  return next as unknown as PositionRecord;
}

/**
 * applyTransition and applyTransitions over a map keyed by `keyOf` (the real repository's key: call, month,
 * citizen), telling `changed` what they wrote as the real writer does (makePositionWriter).
 */
export function memoryPositionWriter(
  all: Map<string, PositionRecord>,
  keyOf: (position: PositionRecord) => string,
  changed: PositionsChanged = noPositionsListener,
) {
  const write = (transition: Transition) => {
    const key = keyOf(transition.after);
    const next = applyToStored(all.get(key) ?? null, transition);
    if (!next) return false;
    all.set(key, next);
    return true;
  };
  return {
    async applyTransition(transition: Transition) {
      if (!write(transition)) return false;
      await changed.positionsChanged([transition]);
      return true;
    },
    async applyTransitions(transitions: readonly Transition[], onWritten?: (count: number) => Promise<unknown>) {
      const written: Transition[] = [];
      for (const transition of transitions) {
        if (write(transition)) written.push(transition);
        await onWritten?.(1);
      }
      if (written.length) await changed.positionsChanged(written);
      return written;
    },
  };
}
