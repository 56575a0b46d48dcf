import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serverDetailSchema } from '../../../shared/schemas/server';
import { pageForEveryone } from './server-page-json';
import { pageOfShape as page } from './server-page.fixture';

describe('a server page for everyone', () => {
  it('is byte for byte what the schema writes, for pages of every shape', () => {
    for (let n = 0; n < 120; n++) {
      const body = page(n);
      expect(JSON.stringify(pageForEveryone(body)), `page ${n}`).toBe(
        JSON.stringify(z.encode(serverDetailSchema, { ...body, viewer: null })),
      );
    }
  });

  it('has every field of the schema, the optional ones too, in its order', () => {
    // A new optional field on the schema compiles without a line here; this is what catches it.
    expect(Object.keys(pageForEveryone(page(1)))).toEqual(Object.keys(serverDetailSchema.shape));
  });
});
