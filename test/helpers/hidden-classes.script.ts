/**
 * Run by `test/hidden-classes.test.ts` under `node --log-maps`: the per-request object building of
 * a server page, of an answer serialised through its schema and of a refusal's `{error, code}`,
 * `ROUNDS` times over pages of every shape. The test reads which hidden classes V8 made meanwhile.
 */
import { encoded } from '../../src/server/lib/zod-encode';
import { extended } from '../../src/server/lib/extended';
import { pageForEveryone } from '../../src/server/modules/servers/server-page-json';
import { pageOfShape } from '../../src/server/modules/servers/server-page.fixture';
import { withCode } from '../../src/server/plugins/error-handler';
import { serverDetailSchema } from '../../src/shared/schemas/server';

const rounds = Number(process.argv[2]);
let bytes = 0;
for (let n = 0; n < rounds; n++) {
  const page = pageOfShape(n);
  bytes += JSON.stringify(extended(pageForEveryone(page), { views: n })).length;
  bytes += JSON.stringify(encoded(serverDetailSchema, extended(page, { viewer: null }))).length;
  bytes += JSON.stringify(withCode({ error: `Refused ${n % 7}` }, [409, 429, 403][n % 3]!)).length;
}
// Something for the test to check that the rounds ran.
process.stdout.write(String(bytes));
