/**
 * Touches on the generated OpenAPI document (/openapi.json) so that it reads like the
 * reference's. The route schemas stay as they are: they drive validation and types.
 */

type Json = Record<string, unknown>;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/**
 * What has a default is optional to the caller, as the reference publishes it: a query
 * parameter with a default is `required: false`, and a request-body property with a default is
 * left out of the body schema's `required`. Our route schemas list such fields as required so
 * that the handler's type has the value Ajv fills in.
 *
 * A body whose schema accepts `null` (`Nullable(X)`, e.g. `POST /v1/personas/from-preset/{preset_id}`)
 * is optional on the route (@fastify/swagger marks every body required): published
 * `requestBody.required: false`.
 */
export function markDefaultsOptional(document: Json): Json {
  const paths = (document.paths ?? {}) as Record<string, Json>;
  for (const item of Object.values(paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as { parameters?: Array<Json>; requestBody?: Json } | undefined;
      for (const parameter of operation?.parameters ?? []) {
        const schema = parameter.schema as Json | undefined;
        if (parameter.in !== 'path' && schema !== undefined && 'default' in schema) parameter.required = false;
      }
      const body = operation?.requestBody;
      const content = (body?.content ?? {}) as Record<string, { schema?: Json }>;
      for (const { schema } of Object.values(content)) {
        if (schema === undefined) continue;
        if (body !== undefined && (schema.anyOf as Json[] | undefined)?.some((branch) => branch.type === 'null') === true) body.required = false;
        for (const objectSchema of [schema, ...((schema.anyOf as Json[] | undefined) ?? [])]) dropDefaultedFromRequired(objectSchema);
      }
    }
  }
  return document;
}

function dropDefaultedFromRequired(schema: Json): void {
  const properties = schema.properties as Record<string, Json> | undefined;
  const required = schema.required as string[] | undefined;
  if (properties === undefined || required === undefined) return;
  const left = required.filter((name) => !(properties[name] !== undefined && 'default' in properties[name]));
  if (left.length === 0) delete schema.required;
  else schema.required = left;
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
  return hoistNamedSchemas(markDefaultsOptional(document));
}
