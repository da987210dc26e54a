interface Operation {
  requestBody?: { required?: boolean; content?: Record<string, { schema?: { anyOf?: Array<{ type?: unknown }> } }> };
}

/**
 * @fastify/swagger marks every request body required. A body whose schema accepts `null`
 * (`Nullable(X)`, e.g. `POST /v1/personas/from-preset/{preset_id}`) is optional on the
 * route, as in the reference: publish it so.
 */
export function markOptionalBodies<T extends { paths?: object }>(document: T): T {
  for (const item of Object.values(document.paths ?? {}) as Array<Record<string, Operation>>) {
    for (const operation of Object.values(item)) {
      const body = operation?.requestBody;
      const schema = body?.content?.['application/json']?.schema;
      if (body !== undefined && schema?.anyOf?.some((branch) => branch.type === 'null') === true) body.required = false;
    }
  }
  return document;
}
