/**
 * A host page for the browser test (test/e2e/app-view/) and the demo's preview (`npm run demo -- --view`), built on
 * the MCP Apps extension's own host-side bridge (AppBridge of @modelcontextprotocol/ext-apps/app-bridge): each call's
 * view in a sandboxed frame of its own (an opaque origin, so not the host's), under the content-security policy a
 * host builds from the resource's `_meta.ui.csp` (as SEP-1865's "CSP Construction from Metadata" writes it), with the
 * call's input and result handed over by the bridge. The MCP client is in Node (the test's or the demo's, over
 * stdio): the page reaches it through window.mcpCall and window.mcpRead, which the test exposes, or the demo's page
 * defines over its loopback server.
 */
import { AppBridge, PostMessageTransport, buildAllowAttribute } from '@modelcontextprotocol/ext-apps/app-bridge';

interface Csp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

interface ReadResult {
  contents: { uri: string; mimeType?: string; text?: string; _meta?: { ui?: { csp?: Csp; permissions?: object } } }[];
}

declare global {
  interface Window {
    mcpCall(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
    mcpRead(uri: string): Promise<ReadResult>;
    showView(
      id: string,
      uri: string,
      args: Record<string, unknown>,
      result: Record<string, unknown>,
      options?: { withoutPermissions?: boolean },
    ): Promise<{ csp: string }>;
  }
}

function policy(csp: Csp | undefined): string {
  const resources = (csp?.resourceDomains ?? []).join(' ');
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`,
    `style-src 'unsafe-inline' ${resources}`,
    `img-src data: ${resources}`,
    `font-src ${resources || "'none'"}`,
    `media-src data: ${resources}`,
    `connect-src ${(csp?.connectDomains ?? []).join(' ') || "'none'"}`,
    `frame-src ${(csp?.frameDomains ?? []).join(' ') || "'none'"}`,
    "object-src 'none'",
    `base-uri ${(csp?.baseUriDomains ?? []).join(' ') || "'none'"}`,
  ]
    .map((d) => d.trim())
    .join('; ');
}

window.showView = async (id, uri, args, result, options = {}) => {
  const read = await window.mcpRead(uri);
  const content = read.contents[0]!;
  if (content.mimeType !== 'text/html;profile=mcp-app') throw new Error(`not an app view: ${content.mimeType}`);
  const csp = policy(content._meta?.ui?.csp);
  const meta = `<meta http-equiv="Content-Security-Policy" content="${csp}">`;
  const html = content.text!.replace(/<head>/i, (head) => `${head}${meta}`);

  const frame = document.createElement('iframe');
  frame.id = id;
  frame.title = `Reverse geocoding view (${id})`;
  frame.setAttribute('sandbox', 'allow-scripts');
  // A host may grant the permissions the view asks for (SEP-1865: MAY), or not.
  if (!options.withoutPermissions) {
    frame.setAttribute('allow', buildAllowAttribute(content._meta?.ui?.permissions as never));
  }
  frame.style.cssText = 'width: 760px; height: 400px; border: 1px solid #999; display: block; margin: 8px 0;';
  document.body.append(frame);

  const bridge = new AppBridge(
    null,
    { name: 'svc-platform-mcp test host', version: '0.0.0' },
    { serverTools: {}, serverResources: {}, logging: {} },
    { hostContext: { theme: 'light', displayMode: 'inline', platform: 'web', locale: 'en-US' } },
  );
  bridge.oncalltool = async (params) => (await window.mcpCall(params.name, params.arguments ?? {})) as never;
  bridge.onreadresource = async (params) => (await window.mcpRead(params.uri)) as never;
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${Math.ceil(height) + 2}px`;
  };
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  // The frame's window stays the same object across its navigation to srcdoc: connected first, nothing is missed.
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result as never);
  return { csp };
};
