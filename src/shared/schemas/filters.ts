import { z } from 'zod';
import { filterCategorySchema } from './server';

/** `GET /api/filters/categories`: every category with its filters, in display order. */
export const filterCategoriesSchema = z.array(filterCategorySchema);
