import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** What `encodedOrNot` answers when the value did not encode: zod's own call then says why. */
const NOT_ENCODED = Symbol('not encoded');

/**
 * A schema's encoding of `value` (what `z.encode` answers), or `NOT_ENCODED`. zod's `encode` and
 * `safeEncode` copy their context with a spread and add a key, and on Node 20's V8 that gives
 * every call a hidden class of its own in the old generation: every answer serialised through a
 * schema made one (docs/decisions/075-hidden-classes-per-request.md). This is the same run with the
 * context zod makes written as a literal, a fresh object each call (zod may mark it).
 */
function encodedOrNot(schema: z.core.$ZodType, value: unknown): unknown {
  // `skipChecks` is there, false, for the same reason: encoding runs a first pass of each checked
  // schema with a copy of the context that sets it, and a copy that only changes a key keeps the class.
  const result = schema._zod.run({ value, issues: [] }, { direction: 'backward', async: false, skipChecks: false });
  if (result instanceof Promise) {
    // Not a schema the app answers with; zod's own call throws its error for it.
    result.catch(() => undefined);
    return NOT_ENCODED;
  }
  return result.issues.length === 0 ? result.value : NOT_ENCODED;
}

/** `z.encode(schema, value)`: the same value, or the same error thrown by zod itself. */
export function encoded<S extends z.ZodType>(schema: S, value: z.output<S>): z.input<S> {
  const done = encodedOrNot(schema, value);
  return done === NOT_ENCODED ? z.encode(schema, value) : (done as z.input<S>);
}

type ZodSerializerCompiler = typeof zodSerializerCompiler;

/**
 * fastify-type-provider-zod's serializer, with each answer encoded by `encoded`'s run: a value the
 * schema refuses still goes through the library's own serializer, which throws its
 * `ResponseSerializationError` as before.
 */
export const serializerCompiler: ZodSerializerCompiler = (route) => {
  // The library's own: it refuses a schema it cannot take (InvalidSchemaError) when the route is made.
  const checked = zodSerializerCompiler(route);
  const given = route.schema as z.core.$ZodType | { properties: z.core.$ZodType };
  const schema = given instanceof z.core.$ZodType ? given : given.properties;
  const serialize: ReturnType<FastifySerializerCompiler<unknown>> = (data) => {
    const done = encodedOrNot(schema, data);
    return done === NOT_ENCODED ? checked(data) : JSON.stringify(done);
  };
  return serialize;
};
