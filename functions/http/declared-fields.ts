import type * as z from 'zod/mini';

type Def = { type: string } & Record<string, any>;
const defOf = (schema: z.ZodMiniType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The value with only the fields its (response) schema declares, at every depth: a stored item's keys
 * (pk, sk, gsi…) or a storage key a use case spread in never reach the client. Nothing is checked or
 * converted — the value is already the schema's output, so transforms are not run again — and a value of
 * a kind the walk does not know (a transform's output, z.unknown) is kept as it is.
 */
export function declaredFields(schema: z.ZodMiniType | undefined, value: unknown): unknown {
  if (!schema || value === null || value === undefined) return value;
  const def = defOf(schema);
  // optional, nullable, default, readonly, catch…: the schema they wrap.
  if (def.innerType) return declaredFields(def.innerType, value);
  switch (def.type) {
    case 'object': {
      if (!isRecord(value)) return value;
      const rest: z.ZodMiniType | undefined =
        def.catchall && defOf(def.catchall).type !== 'never' ? def.catchall : undefined;
      const kept: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(value)) {
        const fieldSchema = Object.hasOwn(def.shape, key) ? def.shape[key] : rest;
        if (fieldSchema) kept[key] = declaredFields(fieldSchema, field);
      }
      return kept;
    }
    case 'array':
      return Array.isArray(value) ? value.map((item) => declaredFields(def.element, item)) : value;
    case 'record':
      return isRecord(value)
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, declaredFields(def.valueType, item)]))
        : value;
    case 'lazy':
      return declaredFields(def.getter(), value);
    // A response is the output side of a pipe; a transform's output has no shape to walk.
    case 'pipe':
      return defOf(def.out).type === 'transform' ? value : declaredFields(def.out, value);
    case 'union': {
      const options: z.ZodMiniType[] = def.options;
      return declaredFields(options.find((option) => option.safeParse(value).success) ?? options[0], value);
    }
    default:
      return value;
  }
}
