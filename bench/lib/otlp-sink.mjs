// An OTLP/HTTP collector reduced to what a bench needs: every POST is read to its end and answered 200, and counted
// (so that a run can tell the exports did arrive). test/helpers/otlp-receiver.ts is the one that decodes them.
import { createServer } from 'node:http';

export async function startOtlpSink() {
  const received = { exports: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (chunk) => (received.bytes += chunk.length));
    req.on('end', () => {
      received.exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    /** The OTEL_EXPORTER_OTLP_ENDPOINT of a server under test. */
    url: `http://127.0.0.1:${server.address().port}`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
