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

const isNamedSchema = (node: Json) => typeof node.title === 'string' && (node.type === 'object' || Array.isArray(node.enum));

/**
 * Named schemas (a TypeBox `title`: Agent, AgentConfigListResponse, UserRead, Team, …, named
 * as the reference's components where they correspond) become `components.schemas` entries
 * that operations `$ref`, as in the reference's document, instead of being inlined at every
 * use. A title seen with two different shapes keeps the first as the component and leaves the
 * other inline, so that a `$ref` always means exactly the schema it names.
 */
export function hoistNamedSchemas(document: Json): Json {
  const components = ((document.components ??= {}) as Json);
  const schemas = ((components.schemas ??= {}) as Record<string, unknown>);
  const hoisted = new Map<string, string>();
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== 'object' || node === null) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) out[key] = visit(value);
    if (!isNamedSchema(out)) return out;
    const name = out.title as string;
    const text = JSON.stringify(out);
    const known = hoisted.get(name);
    if (known === undefined && !(name in schemas)) {
      schemas[name] = out;
      hoisted.set(name, text);
    } else if (known !== text) {
      return out;
    }
    return { $ref: `#/components/schemas/${name}` };
  };
  document.paths = visit(document.paths ?? {});
  return document;
}

export function referenceLikeOpenApi(document: Json): Json {
  return hoistNamedSchemas(markDefaultedParametersOptional(document));
}
