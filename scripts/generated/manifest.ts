// manifest.json (the MCP Bundle) from the source: the settings it asks for and the variables they fill, from the
// rows of the table of environment variables that have a `bundle` entry; the tools, with their titles.
import { ENV_VARIABLES, isBoolean, type BundleSetting, type EnvVariable } from '../../src/config/env-variables.js';
import { computeToolDefinitions } from '../../src/mcp/tool-definitions.js';

type BundleRow = EnvVariable & { bundle: BundleSetting };

/** `a, b or c` */
const oneOfWords = (values: readonly string[]) => `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

/**
 * One user_config entry. A setting the bundle does not require has a default (text: blank), so that the host has a
 * value to put in its place; the server also treats a placeholder left as it is as unset.
 */
function setting(v: BundleRow): Record<string, unknown> {
  const boolean = isBoolean(v);
  const type = boolean ? 'boolean' : v.range ? 'number' : 'string';
  const values = v.choices && !boolean ? `: ${oneOfWords(v.choices)}` : '';
  const fallback = boolean ? v.default === 'true' : v.range ? Number(v.default) : (v.default ?? '');
  return {
    type,
    title: v.bundle.title,
    description: `${v.bundle.description}${values} (${v.name})`,
    ...(v.secret ? { sensitive: true } : {}),
    ...(v.bundle.required ? {} : { default: fallback }),
    ...(v.range ? { min: v.range[0], max: v.range[1] } : {}),
    required: v.bundle.required === true,
  };
}

/** manifest.json with its settings, their variables and its tools made anew; the rest is kept as written. */
export function manifestJson(current: string): string {
  const manifest = JSON.parse(current) as { server: { mcp_config: Record<string, unknown> } } & Record<string, unknown>;
  const rows = (ENV_VARIABLES as readonly EnvVariable[]).filter((v): v is BundleRow => v.bundle !== undefined);
  const env = Object.fromEntries(rows.map((v) => [v.name, `\${user_config.${v.bundle.key}}`]));
  const userConfig = Object.fromEntries(rows.map((v) => [v.bundle.key, setting(v)]));
  const tools = Object.values(computeToolDefinitions()).map((tool) => ({ name: tool.name, description: tool.title }));
  const server = { ...manifest.server, mcp_config: { ...manifest.server.mcp_config, env } };
  return `${JSON.stringify({ ...manifest, server, user_config: userConfig, tools }, null, 2)}\n`;
}
