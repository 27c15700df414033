// The newcomer's tour: a real MCP client starts `svc-platform-mcp --sandbox` over stdio, lists what the
// server offers, calls tools of several services, shows state changing and a refused call, and runs the
// translate-and-summarize flow. Everything runs against the embedded simulator: no account, no network.
// `npm run demo -- --view` then serves a page on loopback that shows the map view of maps_reverse_geocode (an MCP
// App) for a few points, and waits for Ctrl-C.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [cli, '--sandbox'],
  env: { PATH: process.env.PATH ?? '' },
  stderr: 'pipe',
});
let stderr = '';
transport.stderr?.on('data', (chunk) => (stderr += chunk));
const client = new Client({ name: 'svc-platform-demo', version: '1.0.0' });

const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const short = (value, max = 600) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return text.length > max ? `${text.slice(0, max)}\n  … (${text.length - max} more characters)` : text;
};

async function call(label, name, args) {
  console.log(`\n${bold(`▶ ${label}`)}\n  ${name} ${JSON.stringify(args)}`);
  const result = await client.callTool({ name, arguments: args });
  const body = result.structuredContent ?? result.content?.[0]?.text;
  console.log(`${result.isError ? '  ✗ tool error: ' : '  ✓ '}${short(body).replace(/\n/g, '\n  ')}`);
  return result;
}

await client.connect(transport);
console.log(bold('svc-platform-mcp demo — sandbox mode (simulated services, demo data)'));
console.log(stderr.trim().split('\n')[0] ?? '');
console.log(`\nServer: ${client.getServerVersion()?.name} ${client.getServerVersion()?.version}`);

const { tools } = await client.listTools();
console.log(`\n${bold(`${tools.length} tools:`)}`);
for (const tool of tools) {
  const a = tool.annotations ?? {};
  const kind = a.destructiveHint ? 'destructive' : a.readOnlyHint ? 'read-only' : 'writes';
  console.log(`  ${tool.name.padEnd(40)} ${kind.padEnd(12)} ${tool.title ?? ''}`);
}
const caps = client.getServerCapabilities() ?? {};
if (caps.resources) {
  const { resources } = await client.listResources();
  console.log(`\n${bold(`${resources.length} resources:`)} ${resources.map((r) => r.uri).join(', ')}`);
}
if (caps.prompts) {
  const { prompts } = await client.listPrompts();
  console.log(`${bold(`${prompts.length} prompts:`)} ${prompts.map((p) => p.name).join(', ')}`);
}

await call('Translate (phrasebook sentence)', 'translation_translate_text', {
  source: 'ko',
  target: 'en',
  text: '안녕하세요',
});
await call('Translate with automatic source detection', 'translation_translate_text', {
  source: 'auto',
  target: 'ja',
  text: 'Thank you.',
});
await call('Reverse geocode a point in Seoul', 'maps_reverse_geocode', {
  coords: '126.9783,37.5666',
  orders: 'legalcode,roadaddr',
});
const geocoder = tools.find((t) => t.name === 'maps_reverse_geocode');
const viewUri = geocoder?._meta?.ui?.resourceUri;
console.log(
  viewUri
    ? `  App view: the tool declares ${viewUri} (MCP Apps); hosts that render apps show the answer as a map.\n` +
        '  See it here: npm run demo -- --view (docs/app-views.md).'
    : '  App view: off (--no-app-views or SVC_APP_VIEWS=false).',
);
await call('Stream config groups, page 1 of 3', 'streaming_list_config_groups', {
  kafkaVersionCode: 2080100,
  pageSize: 10,
});
await call('Text generation', 'textgen_create_completion', {
  text: 'Write one sentence about data pipelines.',
  maxTokens: 40,
});
await call('API gateway products that are published and PUBLIC', 'apigateway_list_products', {
  isPublished: true,
  subscriptionCode: 'PUBLIC',
  limit: 3,
});

console.log(`\n${bold('State changes:')}`);
await call('Update job execution options', 'dataflow_update_job_execution_options', {
  jobId: 'job-orders-daily',
  jobCondition: {
    numWorker: 4,
    timeout: 120,
    nrn: 'nrn:demo:dataflow:job-orders-daily',
    scriptPath: 'obs://scripts/orders',
    logPath: 'obs://logs/orders',
  },
});
await call('Delete a recommendation service: a dry run first (nothing is sent)', 'recommendation_delete_service', {
  serviceId: 'rcs-cart-upsell',
  dryRun: true,
});
await call("…without the user's confirmation: refused, nothing sent", 'recommendation_delete_service', {
  serviceId: 'rcs-cart-upsell',
});
await call('…confirmed (this demo client shows no forms, so confirm carries the id)', 'recommendation_delete_service', {
  serviceId: 'rcs-cart-upsell',
  confirm: 'rcs-cart-upsell',
});
await call('…and delete it again (now not found)', 'recommendation_delete_service', {
  serviceId: 'rcs-cart-upsell',
  confirm: 'rcs-cart-upsell',
});

console.log(`\n${bold('Refused before anything is sent:')}`);
await call('An unsupported translation direction', 'translation_translate_text', {
  source: 'ja',
  target: 'es',
  text: 'こんにちは',
});
await call('App name breaking the naming rule', 'bigdata_check_app_name', {
  accountId: '4fRk2Q9xLmN7pVb3TzYc1H',
  name: 'Bad--Name',
});

if (tools.some((t) => t.name === 'translate_and_summarize')) {
  console.log(`\n${bold('Translate-and-summarize flow (one tool call, progress reported):')}`);
  const text = '안녕하세요. 만나서 반갑습니다. 회의는 오후 3시에 시작합니다. 회의 자료를 보내 주세요. 감사합니다. ';
  const result = await client.callTool(
    { name: 'translate_and_summarize', arguments: { text, target: 'en' } },
    undefined,
    { onprogress: (p) => console.log(`  … progress ${p.progress}/${p.total ?? '?'} ${p.message ?? ''}`) },
  );
  console.log(
    `  ${result.isError ? '✗' : '✓'} ${short(result.structuredContent ?? result.content?.[0]?.text).replace(/\n/g, '\n  ')}`,
  );
}

if (process.argv.includes('--view') && viewUri) {
  const { serveViewPreview } = await import('./lib/app-view-preview.mjs');
  const all = 'legalcode,admcode,addr,roadaddr';
  const url = await serveViewPreview(client, {
    tool: 'maps_reverse_geocode',
    uri: viewUri,
    calls: [
      { coords: '126.97843,37.56668', orders: all },
      { coords: '129.1587,35.1586', orders: all },
      { coords: '127.49255,37.49261' },
    ],
  });
  console.log(`\n${bold('App view preview:')} open ${url} in a browser (Seoul City Hall, Haeundae Beach, Yangpyeong).`);
  console.log('Ctrl-C ends the demo.');
  await new Promise((resolve) => process.once('SIGINT', resolve));
}

await client.close();
console.log(
  `\n${bold('Done.')} Point Claude Desktop, Claude Code or the MCP Inspector at \`node dist/cli.js --sandbox\` to try it yourself (see README).`,
);
