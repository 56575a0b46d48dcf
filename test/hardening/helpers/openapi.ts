import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/** The subset of JSON Schema the document uses. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  default?: unknown;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One operation of the OpenAPI document. */
export interface Operation {
  method: Method;
  /** OpenAPI path, with `{param}` placeholders. */
  path: string;
  /** "METHOD /path" — the key of the exception and override tables. */
  key: string;
  tags: string[];
  pathParams: string[];
  query: Array<{ name: string; required: boolean; schema: JsonSchema }>;
  /** The JSON body schema, when the operation takes JSON. */
  body?: JsonSchema;
  /** The operation reads multipart/form-data (fields and files). */
  multipart: boolean;
}

interface RawOperation {
  tags?: string[];
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** Every operation the app's OpenAPI document lists: a route added later shows up here by itself. */
export async function listOperations(app: FastifyInstance): Promise<Operation[]> {
  await app.ready();
  const doc = app.swagger() as { paths: Record<string, Record<string, RawOperation>> };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [lower, raw] of Object.entries(methods)) {
      const method = lower.toUpperCase() as Method;
      const params = raw.parameters ?? [];
      const content = raw.requestBody?.content ?? {};
      operations.push({
        method,
        path,
        key: `${method} ${path}`,
        tags: raw.tags ?? [],
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: !!p.required, schema: p.schema })),
        body: content['application/json']?.schema,
        multipart: !!content['multipart/form-data'],
      });
    }
  }
  return operations;
}

/** Substitutes `{param}` placeholders (values are URL-encoded). */
export function fillPath(path: string, values: Record<string, string | number>): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** Names a property that holds the id of a server. */
export const SERVER_ID_FIELDS = new Set(['serverId']);
/** Names a property that holds the id of a user. */
export const USER_ID_FIELDS = new Set(['userId', 'targetUserId', 'ownerId']);

/** Ids a generated body refers to: the caller's own objects unless a test says otherwise. */
export interface FillContext {
  serverId?: string | number;
  userId?: string | number;
}

/**
 * A value that the schema accepts: the first enum member, the shortest allowed string, the
 * minimum number, an object with its required properties. Ids come from `ctx`.
 */
export function sampleValue(schema: JsonSchema | undefined, ctx: FillContext = {}, name = ''): unknown {
  if (!schema) return undefined;
  if (SERVER_ID_FIELDS.has(name) && ctx.serverId !== undefined) return String(ctx.serverId);
  if (USER_ID_FIELDS.has(name) && ctx.userId !== undefined) return String(ctx.userId);
  if (schema.enum) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return sampleValue(alternatives[0], ctx, name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      if (schema.pattern === '^\\d{1,15}$') return '1';
      const length = Math.min(Math.max(schema.minLength ?? 0, 8), schema.maxLength ?? 8);
      return `sample-text-value`.padEnd(length, 'x').slice(0, Math.max(length, 1));
    }
    case 'integer':
    case 'number':
      return schema.minimum !== undefined && schema.minimum > -1e6 ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
    case undefined: {
      if (!schema.properties) return {};
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sampleValue(schema.properties[key], ctx, key);
      return out;
    }
    default:
      return null;
  }
}

/** A query string that satisfies the operation's required parameters. */
export function sampleQuery(op: Operation, ctx: FillContext = {}): Record<string, string> {
  const query: Record<string, string> = {};
  for (const q of op.query) if (q.required) query[q.name] = String(sampleValue(q.schema, ctx, q.name));
  return query;
}

/** One recorded exchange, for scans over every answer of a run. */
export interface Exchange {
  key: string;
  actor: string;
  status: number;
  body: string;
}

/** `app.inject` that remembers each answer in `log` (when given). */
export async function send(
  app: FastifyInstance,
  request: InjectOptions & { key?: string; actor?: string },
  log?: Exchange[],
): Promise<LightMyRequestResponse> {
  const { key, actor, ...options } = request;
  const response = await app.inject(options);
  log?.push({
    key: key ?? `${options.method} ${options.url}`,
    actor: actor ?? 'anonymous',
    status: response.statusCode,
    body: response.body,
  });
  return response;
}
