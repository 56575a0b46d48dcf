import fc from 'fast-check';
import type { Operation } from './openapi';

/** One request the fuzzer sends. */
export interface FuzzCase {
  label: string;
  method: string;
  url: string;
  payload?: string | Buffer;
  headers: Record<string, string>;
}

const HUGE = 'x'.repeat(200_000);
const NESTED = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const NESTED_OBJECT = `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`;

/** Values of the wrong type or shape, for one property or one parameter. */
export const HOSTILE_VALUES: unknown[] = [
  null,
  [],
  [1, 'two', null],
  {},
  { nested: { deeper: [1, { x: null }] } },
  true,
  -1,
  0,
  1.5,
  1e308,
  -1e308,
  2 ** 60,
  '99999999999999999999999',
  '',
  ' ',
  HUGE,
  '𝕏 ünïcødé \u202E\u0000\uFFFF 🙂',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '<script>alert(1)</script>',
  // Dates the ISO format allows and the database does not hold (the year 0000 is 1 BC).
  '0000-01-01T00:00:00Z',
  '0000-01',
  '9999-12-31T23:59:59.999Z',
];

/** A multipart body (boundary `b`) with the same text in each named field. */
function multipartText(names: string[], value: string): string {
  return `${names.map((name) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('')}--b--\r\n`;
}

/** Whole bodies that are not what any route wants: raw text, so invalid JSON is possible. */
export const HOSTILE_BODIES: Array<{ label: string; payload: string; type?: string }> = [
  { label: 'invalid JSON', payload: '{"a":' },
  { label: 'JSON null', payload: 'null' },
  { label: 'array instead of object', payload: '[{"a":1}]' },
  { label: 'string instead of object', payload: '"text"' },
  { label: 'number instead of object', payload: '12' },
  { label: '__proto__ key', payload: '{"__proto__":{"isAdmin":true,"role":"admin"},"a":1}' },
  { label: 'constructor key', payload: '{"constructor":{"prototype":{"isAdmin":true}}}' },
  { label: 'deeply nested arrays', payload: NESTED },
  { label: 'deeply nested objects', payload: NESTED_OBJECT },
  { label: 'huge string', payload: JSON.stringify({ a: HUGE }) },
  { label: 'empty body with JSON type', payload: '' },
  { label: 'text/plain', payload: '{"a":1}', type: 'text/plain' },
  { label: 'form-urlencoded', payload: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
  { label: 'multipart without boundary', payload: 'xx', type: 'multipart/form-data' },
  {
    label: 'multipart with NUL in text fields',
    payload: multipartText(['name', 'statusMessage', 'bio', 'displayName'], 'x\u0000y'),
    type: 'multipart/form-data; boundary=b',
  },
  {
    label: 'multipart with a __proto__ field',
    payload: multipartText(['__proto__', 'constructor'], '{"isAdmin":true}'),
    type: 'multipart/form-data; boundary=b',
  },
  { label: 'unknown type', payload: '\u0000\u0001', type: 'application/x-unknown' },
];

/** Path parameter values that are not ids. */
export const HOSTILE_IDS = [
  '-1',
  '0',
  '1.5',
  '1e3',
  '99999999999999999999',
  '9007199254740993',
  'abc',
  'null',
  '[]',
  '%00',
  '..%2F..',
  ' 1',
  'x'.repeat(3000),
  '𝕏',
  // Escapes that do not decode: the router refuses them before any route runs.
  '%ff',
  '%',
];

/** A stable seed per operation, so a failure can be replayed. */
function seedOf(key: string): number {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return hash;
}

function withQuery(url: string, query: Record<string, string>): string {
  const [path, search] = url.split('?');
  const params = new URLSearchParams(search ?? '');
  for (const [k, v] of Object.entries(query)) params.set(k, v);
  const text = params.toString();
  return text ? `${path}?${text}` : path!;
}

/**
 * The cases for one operation, built from a valid request: hostile whole bodies, each body
 * property and query parameter given hostile values, hostile path ids, and fast-check samples
 * (random JSON bodies, random strings as parameters). `perKind` bounds each kind of mutation.
 */
export function fuzzCases(
  op: Operation,
  valid: { method: string; url: string; payload?: string | Buffer; headers: Record<string, string> },
  perKind: number,
  randomRuns: number,
): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const seed = seedOf(op.key);
  const pick = <T>(items: T[], offset: number): T[] =>
    items.length <= perKind ? items : Array.from({ length: perKind }, (_, i) => items[(offset + i) % items.length]!);
  const auth: Record<string, string> = valid.headers.authorization ? { authorization: valid.headers.authorization } : {};
  const takesBody = op.method !== 'GET' && op.method !== 'DELETE';

  if (takesBody) {
    for (const body of pick(HOSTILE_BODIES, seed >>> 3)) {
      cases.push({
        label: `body: ${body.label}`,
        method: op.method,
        url: valid.url,
        payload: body.payload,
        headers: { ...auth, 'content-type': body.type ?? 'application/json' },
      });
    }
    const base = op.body && typeof valid.payload === 'string' ? (JSON.parse(valid.payload) as Record<string, unknown>) : {};
    const fields = Object.keys(op.body?.properties ?? {});
    for (const field of fields) {
      for (const value of pick(HOSTILE_VALUES, seed >>> 5)) {
        cases.push({
          label: `body.${field} = ${JSON.stringify(value)?.slice(0, 30)}`,
          method: op.method,
          url: valid.url,
          payload: JSON.stringify({ ...base, [field]: value }),
          headers: { ...auth, 'content-type': 'application/json' },
        });
      }
    }
    for (const value of fc.sample(fc.jsonValue({ maxDepth: 4 }), { numRuns: randomRuns, seed })) {
      cases.push({
        label: `random body ${JSON.stringify(value).slice(0, 40)}`,
        method: op.method,
        url: valid.url,
        payload: JSON.stringify(value),
        headers: { ...auth, 'content-type': 'application/json' },
      });
    }
    if (op.multipart) {
      cases.push({
        label: 'JSON to a multipart route',
        method: op.method,
        url: valid.url,
        payload: '{"name":"x"}',
        headers: { ...auth, 'content-type': 'application/json' },
      });
    }
  }

  const validValues = Object.fromEntries(op.pathParams.map((p) => [p, extractParam(op.path, valid.url, p)]));
  const search = valid.url.includes('?') ? `?${valid.url.split('?')[1]}` : '';
  for (const name of op.pathParams) {
    const randomIds = fc.sample(fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.double().map(String), fc.bigInt().map(String)), {
      numRuns: randomRuns,
      seed: seed + 1,
    });
    for (const id of [...pick(HOSTILE_IDS, seed >>> 7), ...randomIds]) {
      // Hand-written ids keep their own escapes (`%00`); random ones are encoded so the URL stays a URL.
      const encoded = HOSTILE_IDS.includes(id) && id.includes('%') ? id : encodeURIComponent(id);
      const url = op.path.replace(/\{(\w+)\}/g, (_m, p: string) => (p === name ? encoded : validValues[p]!)) + search;
      cases.push({ label: `path ${name} = ${id.slice(0, 30)}`, method: op.method, url, payload: valid.payload, headers: valid.headers });
    }
  }

  const queryNames = [...op.query.map((q) => q.name), 'unknownParam'];
  for (const name of queryNames) {
    const random = fc.sample(fc.string({ unit: 'binary', maxLength: 60 }), { numRuns: randomRuns, seed: seed + 2 });
    for (const value of [
      ...pick(
        HOSTILE_VALUES.map((v) => (typeof v === 'string' ? v.slice(0, 5000) : JSON.stringify(v))),
        seed >>> 9,
      ),
      ...random,
    ]) {
      cases.push({
        label: `query ${name} = ${value.slice(0, 30)}`,
        method: op.method,
        url: withQuery(valid.url, { [name]: value }),
        payload: valid.payload,
        headers: valid.headers,
      });
    }
    cases.push({
      label: `query ${name} repeated`,
      method: op.method,
      url: `${valid.url}${valid.url.includes('?') ? '&' : '?'}${name}=1&${name}=2`,
      payload: valid.payload,
      headers: valid.headers,
    });
  }
  cases.push({
    label: 'query __proto__',
    method: op.method,
    url: `${valid.url}${valid.url.includes('?') ? '&' : '?'}__proto__[isAdmin]=1&constructor[prototype][x]=1`,
    payload: valid.payload,
    headers: valid.headers,
  });
  return cases;
}

/** The value a valid URL carries for a path parameter (to keep the others valid while one is fuzzed). */
function extractParam(template: string, url: string, name: string): string {
  const pattern = new RegExp(
    `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, p: string) => (p === name ? '([^/?]+)' : '[^/?]+'))}`,
  );
  return pattern.exec(url)?.[1] ?? '1';
}
