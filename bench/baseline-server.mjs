// The limit the app is measured against: a bare node:http server on the same machine answering,
// for each URL, the very bytes and headers the app answered (recorded once by the benchmark).
// Started by bench/run.ts as a child process: `node bench/baseline-server.mjs <responses.json>`;
// prints "PORT <n>" once it listens on 127.0.0.1.
import fs from 'node:fs';
import http from 'node:http';

/** @type {Record<string, {status: number, headers: Record<string, string>, body: string}>} */
const recorded = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const responses = new Map(
  Object.entries(recorded).map(([url, r]) => {
    const body = Buffer.from(r.body, 'base64');
    return [url, { status: r.status, headers: { ...r.headers, 'content-length': String(body.length) }, body }];
  }),
);

const server = http.createServer((request, response) => {
  const recordedResponse = responses.get(request.url ?? '');
  if (!recordedResponse) {
    response.writeHead(404).end();
    return;
  }
  // A fresh Date, as any server sends.
  response.writeHead(recordedResponse.status, { ...recordedResponse.headers, date: new Date().toUTCString() });
  response.end(recordedResponse.body);
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`PORT ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
