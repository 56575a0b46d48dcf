/**
 * `{ ...base, ...extra }`: the same keys in the same order, made by `Object.assign`. On Node 20's
 * V8 an object spread followed by a key the spread did not bring gives every object it makes a
 * hidden class of its own (a new map and descriptor array, in the old generation), where
 * `Object.assign` onto `{}` follows the same transitions each time. On a path taken per request
 * that was full collections several times a second (docs/decisions/075-hidden-classes-per-request.md).
 */
export function extended<T extends object, U extends object>(base: T, extra: U): Omit<T, keyof U> & U {
  return Object.assign({}, base, extra);
}
