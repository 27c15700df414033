// The demo's preview of the app view (`npm run demo -- --view`): a page on loopback that hosts the view of a few calls
// the way a host that renders MCP Apps does, with the extension's own host-side bridge (scripts/lib/app-view-host.ts,
// which the browser test uses too). The page reaches the demo's MCP client through this server.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const MAX_BODY = 64 * 1024;

/** Serves the preview until the process ends; resolves with its URL. */
export async function serveViewPreview(client, { tool, uri, calls }) {
  const bundle = await rolldown({
    input: fileURLToPath(new URL('./app-view-host.ts', import.meta.url)),
    platform: 'browser',
    logLevel: 'warn',
  });
  const { output } = await bundle.generate({ format: 'iife' });
  await bundle.close();
  const host = output[0].code;
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc-platform-mcp: app view preview</title>
<link rel="icon" href="data:,"><style>body{font-family:system-ui,sans-serif;margin:16px;max-width:800px}</style></head>
<body><h1>The map view of ${tool}</h1>
<p>Each frame is one call's view, as a host that renders MCP Apps shows it: the page is the server's
<code>${uri}</code> resource, in a sandboxed frame under the content-security policy its declaration asks for. Its
buttons call the tool again through this page, which hands the call to the demo's MCP client.</p>
<script>
const post = (path, body) => fetch(path, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json());
window.mcpCall = (name, args) => post('/call', { name, arguments: args });
window.mcpRead = (uri) => post('/read', { uri });
</script>
<script src="/host.js"></script>
<script type="module">
const calls = ${JSON.stringify(calls).replace(/</g, '\\u003c')};
for (const [i, args] of calls.entries()) {
  const heading = document.createElement('h2');
  heading.textContent = '${tool} ' + JSON.stringify(args);
  document.body.append(heading);
  const result = await window.mcpCall('${tool}', args);
  await window.showView('view-' + i, '${uri}', args, result);
}
</script></body></html>`;
  const server = createServer(async (request, response) => {
    try {
      if (request.method === 'GET' && request.url === '/') return send(response, 200, 'text/html', page);
      if (request.method === 'GET' && request.url === '/host.js') return send(response, 200, 'text/javascript', host);
      if (request.method !== 'POST') return send(response, 404, 'text/plain', 'not found');
      const body = JSON.parse(await read(request));
      // Only the view's own tool and resources: the page is no general door to the server.
      if (request.url === '/call' && body.name === tool) {
        return send(response, 200, 'application/json', JSON.stringify(await client.callTool(body)));
      }
      if (request.url === '/read') {
        return send(response, 200, 'application/json', JSON.stringify(await client.readResource({ uri: body.uri })));
      }
      send(response, 404, 'text/plain', 'not found');
    } catch (error) {
      send(response, 500, 'text/plain', String(error?.message ?? error));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}/`;
}

function send(response, status, type, body) {
  response.writeHead(status, { 'content-type': `${type}; charset=utf-8` }).end(body);
}

async function read(request) {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > MAX_BODY) throw new Error('request too large');
  }
  return body;
}
