import type * as z from 'zod';

type Def = { type: string } & Record<string, any>;
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The value with only the fields its (response) schema declares, at every depth: a stored item's keys
 * (pk, sk, gsi…) or a storage key a use case spread in never reach the client. Nothing is checked or
 * converted — the value is already the schema's output, so transforms are not run again — and a field of
 * a kind the walk does not know (a transform's output, z.unknown) is kept as it is.
 */
export function declaredFields(schema: z.ZodType | null | undefined, value: unknown): unknown {
  if (!schema || value === null || value === undefined) return value;
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(value)) return value;
      const shape = def.shape as Record<string, z.ZodType>;
      const rest = def.catchall && defOf(def.catchall).type !== 'never' ? (def.catchall as z.ZodType) : null;
      const kept: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(value)) {
        const fieldSchema = Object.hasOwn(shape, key) ? shape[key] : rest;
        if (fieldSchema) kept[key] = declaredFields(fieldSchema, field);
      }
      return kept;
    }
    case 'array':
      return Array.isArray(value) ? value.map((item) => declaredFields(def.element, item)) : value;
    case 'tuple':
      return Array.isArray(value) ? value.map((item, index) => declaredFields(def.items[index] ?? def.rest, item)) : value;
    case 'record':
      return isPlainObject(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, declaredFields(def.valueType, item)])) : value;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return declaredFields(def.innerType, value);
    case 'lazy':
      return declaredFields(def.getter(), value);
    // A response is the output side of a pipe; a transform's output has no shape to walk.
    case 'pipe':
      return defOf(def.out).type === 'transform' ? value : declaredFields(def.out, value);
    case 'union': {
      const options = def.options as z.ZodType[];
      const match = options.find((option) => option.safeParse(value).success) ?? options[0];
      return match ? declaredFields(match, value) : value;
    }
    case 'intersection': {
      const [left, right] = [declaredFields(def.left, value), declaredFields(def.right, value)];
      return isPlainObject(left) && isPlainObject(right) ? { ...left, ...right } : left;
    }
    default:
      return value;
  }
}
