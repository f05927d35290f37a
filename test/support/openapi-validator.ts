import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** The parts of an OpenAPI 3.0 document the response checks read. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }>>;
  components?: Record<string, unknown>;
}

/**
 * Ajv in strict mode, as a strict third-party client validates: an unknown keyword or format in the document
 * is an error, and `nullable` means what OpenAPI 3.0 says (null allowed only where it stands beside a `type`;
 * beside a `$ref` or around an `allOf` it is no keyword at all, so a null there fails).
 */
export function strictOpenApiAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  // OpenAPI's annotations, and `components` so a schema can carry the document's components for its refs.
  ajv.addVocabulary(['example', 'xml', 'externalDocs', 'components']);
  return ajv;
}

/** Compiles `schema` with the document's components beside it, so its #/components/... refs resolve. */
export function compileWithComponents(ajv: Ajv, doc: OpenApiDocument, schema: object): ValidateFunction {
  return ajv.compile({ ...schema, components: doc.components });
}

export interface ObservedResponse {
  method: string;
  /** The request path without its query. */
  path: string;
  status: number;
  contentType: string | undefined;
  body: string;
}

/**
 * Checks answers against one OpenAPI document: the route's documented statuses and, for a JSON body, the
 * documented schema. Validators are compiled on first use and kept, one per route and status.
 */
export class OpenApiResponseChecker {
  private readonly ajv = strictOpenApiAjv();
  private readonly validators = new Map<string, ValidateFunction | null>();
  private readonly matched = new Map<string, string | undefined>();
  /** Literal paths before templated ones, so /notifications/settings is not read as /notifications/{id}. */
  private readonly routes: Array<{ template: string; pattern: RegExp }>;

  constructor(private readonly doc: OpenApiDocument) {
    this.routes = Object.keys(doc.paths)
      .map((template) => ({
        template,
        params: (template.match(/\{/g) ?? []).length,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
      }))
      .sort((a, b) => a.params - b.params);
  }

  /** The documented route an answer belongs to ("GET /api/v1/keys/{id}"), or undefined for paths the document does not list. */
  route(method: string, path: string): string | undefined {
    const key = `${method.toUpperCase()} ${path}`;
    if (this.matched.has(key)) return this.matched.get(key);
    const lower = method.toLowerCase();
    const match = this.routes.find((r) => r.pattern.test(path) && this.doc.paths[r.template][lower] !== undefined);
    const route = match && `${method.toUpperCase()} ${match.template}`;
    if (this.matched.size > 10_000) this.matched.clear();
    this.matched.set(key, route);
    return route;
  }

  /** Why the answer breaks the document, or null when it keeps it (or its route is not documented). */
  violation(res: ObservedResponse): string | null {
    const route = this.route(res.method, res.path);
    if (route === undefined) return null;
    const [, template] = route.split(' ');
    const responses = this.doc.paths[template][res.method.toLowerCase()].responses ?? {};
    const documented = responses[String(res.status)] ?? responses.default;
    if (!documented) return `${route}: status ${res.status} is not documented (documented: ${Object.keys(responses).join(', ')})`;
    const validate = this.validatorFor(`${route} ${res.status}`, documented.content?.['application/json']?.schema);
    if (validate === null) return null;
    if (!/^application\/json\b/.test(res.contentType ?? '')) return `${route} ${res.status}: content-type ${res.contentType} where JSON is documented`;
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      return `${route} ${res.status}: the body is not JSON`;
    }
    if (validate(body)) return null;
    return `${route} ${res.status}: ${this.ajv.errorsText(validate.errors, { separator: '; ' })} in ${res.body.slice(0, 400)}`;
  }

  private validatorFor(key: string, schema: object | undefined): ValidateFunction | null {
    let validate = this.validators.get(key);
    if (validate === undefined) {
      validate = schema === undefined ? null : compileWithComponents(this.ajv, this.doc, schema);
      this.validators.set(key, validate);
    }
    return validate;
  }
}
