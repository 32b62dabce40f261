import { request } from './api.ts';

/** A JSON Schema as the OpenAPI document writes it (OpenAPI 3.0 flavour: `nullable`, no `type` arrays). */
export interface JsonSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      { operationId: string; responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }> }
    >
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

let served: Promise<OpenApiDocument> | undefined;
/** The OpenAPI document the local API serves (read once). */
export const servedDocument = () =>
  (served ??= request('GET', '/api/openapi.json').then((r) => r.json as OpenApiDocument));

/** The JSON schema of an operation's success answer in the document, or undefined when it declares none. */
export function responseSchema(
  document: OpenApiDocument,
  method: string,
  path: string,
  status: number,
): JsonSchema | undefined {
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${path} is not in the OpenAPI document`);
  return operation.responses[String(status)]?.content?.['application/json']?.schema;
}

/**
 * Every field of `value` that `schema` does not declare, as a path ('$.items[0].pk'): an object schema
 * declares its `properties`, and further keys only through `additionalProperties`. A schema with neither
 * (unknown, any) declares whatever it holds.
 */
export function undeclaredFields(schema: JsonSchema, value: unknown, document: OpenApiDocument, at = '$'): string[] {
  if (schema.$ref)
    return undeclaredFields(document.components!.schemas![schema.$ref.split('/').pop()!]!, value, document, at);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    // Declared by any of the options: the fewest undeclared fields.
    const each = options.map((option) => undeclaredFields(option, value, document, at));
    return each.reduce((fewest, found) => (found.length < fewest.length ? found : fewest));
  }
  if (schema.allOf) {
    const each = schema.allOf.map((part) => new Set(undeclaredFields(part, value, document, at)));
    return [...each[0]!].filter((field) => each.every((found) => found.has(field)));
  }
  if (Array.isArray(value))
    return schema.items
      ? value.flatMap((item, index) => undeclaredFields(schema.items!, item, document, `${at}[${index}]`))
      : [];
  if (value === null || typeof value !== 'object' || (!schema.properties && schema.additionalProperties === undefined))
    return [];
  return Object.entries(value).flatMap(([key, field]) => {
    const declared =
      schema.properties?.[key] ??
      (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    if (declared) return undeclaredFields(declared, field, document, `${at}.${key}`);
    return schema.additionalProperties === true ? [] : [`${at}.${key}`];
  });
}
