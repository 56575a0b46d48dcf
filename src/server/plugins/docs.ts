import type { FastifyInstance } from 'fastify';
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * A route that reads multipart/form-data declares `consumes` but no body schema (its parts are read
 * by hand), which would leave it without a request body in the document. Giving it an open object
 * body makes the document say "multipart/form-data", so clients and the hardening suite see it.
 */
const transform: SwaggerTransform = (input) => {
  const result = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const schema = result.schema as { consumes?: string[]; body?: unknown } | undefined;
  if (schema && !schema.body && schema.consumes?.includes('multipart/form-data')) {
    return { ...result, schema: { ...schema, body: { type: 'object', description: 'Form fields and image files.' } } } as typeof result;
  }
  return result;
};

/** OpenAPI document generated from the routes' zod schemas: UI at `/api/docs`, JSON at `/api/docs/json`. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'RP Servers API', description: 'Discover and promote roleplay game servers.', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}
