import { serializerCompiler as libraryCompiler, isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serverDetailSchema } from '../../shared/schemas/server';
import { pageForEveryone } from '../modules/servers/server-page-json';
import { pageOfShape } from '../modules/servers/server-page.fixture';
import { encoded, serializerCompiler } from './zod-encode';

/** A schema with a codec, checks and a refinement: what encoding runs both ways through. */
const stamped = z.object({
  at: z.codec(z.iso.datetime(), z.date(), { decode: (s) => new Date(s), encode: (d) => d.toISOString() }),
  name: z.string().min(2).max(10),
  count: z.number().int().nonnegative(),
  tags: z.array(z.string().min(1)).max(3),
});

type RouteOf = Parameters<typeof libraryCompiler>[0];
const route = (schema: unknown): RouteOf => ({ schema, method: 'GET', url: '/x', httpStatus: '200' }) as RouteOf;

describe('encoded', () => {
  it('is what z.encode gives, for server pages of every shape and a codec', () => {
    for (let n = 0; n < 60; n++) {
      const page = pageForEveryone(pageOfShape(n));
      expect(encoded(serverDetailSchema, page)).toEqual(z.encode(serverDetailSchema, page));
    }
    const value = { at: new Date(Date.UTC(2026, 11, 6, 12)), name: 'Sam', count: 3, tags: ['a'] };
    expect(encoded(stamped, value)).toEqual({ at: '2026-12-06T12:00:00.000Z', name: 'Sam', count: 3, tags: ['a'] });
  });

  it('throws zod’s own error for a value the schema refuses, a check or a type', () => {
    const bad = [
      { at: new Date(0), name: 'S', count: 3, tags: [] },
      { at: new Date(0), name: 'Sam', count: -1, tags: [] },
      { at: new Date(0), name: 'Sam', count: 1, tags: ['a', 'b', 'c', 'd'] },
      { at: 'not a date', name: 'Sam', count: 1, tags: [] },
    ];
    for (const value of bad) {
      const theirs = (() => {
        try {
          z.encode(stamped, value as never);
        } catch (error) {
          return error as z.ZodError;
        }
      })();
      expect(theirs).toBeInstanceOf(z.ZodError);
      expect(() => encoded(stamped, value as never)).toThrow(theirs!.message);
    }
  });
});

describe('the serializer compiler', () => {
  it('writes what the library’s writes, for a schema and for one under `properties`', () => {
    const value = { at: new Date(Date.UTC(2026, 0, 2)), name: 'Sam', count: 0, tags: ['x', 'y'] };
    for (const schema of [stamped, { properties: stamped }]) {
      expect(serializerCompiler(route(schema))(value)).toBe(libraryCompiler(route(schema))(value));
    }
    const page = pageForEveryone(pageOfShape(7));
    expect(serializerCompiler(route(serverDetailSchema))(page)).toBe(libraryCompiler(route(serverDetailSchema))(page));
  });

  it('refuses an answer the schema refuses with the library’s ResponseSerializationError, and a schema it cannot take', () => {
    const serialize = serializerCompiler(route(stamped));
    let thrown: unknown;
    try {
      serialize({ at: new Date(0), name: 'S', count: 1, tags: [] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(isResponseSerializationError(thrown as never)).toBe(true);
    expect((thrown as { statusCode: number }).statusCode).toBe(500);
    expect(() => serializerCompiler(route({ type: 'object' }))).toThrow(/Invalid schema/);
  });
});
