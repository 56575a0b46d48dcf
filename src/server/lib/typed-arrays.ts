/** `next` (a bigger typed array) holding `old`'s values at its start: how the in-memory stores grow. */
export function grown<T extends Int32Array | Uint32Array | Float64Array | Uint8Array>(old: T, next: T): T {
  next.set(old);
  return next;
}
