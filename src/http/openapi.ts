/**
 * Touches on the generated OpenAPI document (/openapi.json) so that it reads like the
 * reference's. The route schemas stay as they are: they drive validation and types.
 */

type Json = Record<string, unknown>;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/**
 * A query parameter with a default is optional to the caller (the reference says
 * `required: false`); our schemas list it as required so that the handler's type has the
 * value Ajv fills in.
 */
export function markDefaultedParametersOptional(document: Json): Json {
  const paths = (document.paths ?? {}) as Record<string, Json>;
  for (const item of Object.values(paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as { parameters?: Array<Json> } | undefined;
      for (const parameter of operation?.parameters ?? []) {
        const schema = parameter.schema as Json | undefined;
        if (parameter.in !== 'path' && schema !== undefined && 'default' in schema) parameter.required = false;
      }
    }
  }
  return document;
}

export function referenceLikeOpenApi(document: Json): Json {
  return markDefaultedParametersOptional(document);
}
