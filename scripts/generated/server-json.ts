// server.json's environment variables (the MCP Registry's format), from the table of environment variables.
import { CATALOGUE } from '../../src/catalogue/catalogue.js';
import { SERVICES, SERVICE_NAMES } from '../../src/catalogue/types.js';
import { ENV_VARIABLES, isBoolean, rangeText, type EnvVariable } from '../../src/config/env-variables.js';

function serverJsonVariables(): Record<string, unknown>[] {
  return (ENV_VARIABLES as readonly EnvVariable[]).flatMap((v) => {
    const range = rangeText(v);
    const common = {
      ...(v.secret ? { isSecret: true } : {}),
      ...(isBoolean(v) ? { format: 'boolean' } : v.range ? { format: 'number' } : {}),
      ...(v.default !== undefined ? { default: v.default } : {}),
      ...(v.choices ? { choices: [...v.choices] } : {}),
    };
    if (v.name !== 'SVC_<SERVICE>_URL')
      return [{ name: v.name, description: range ? `${v.meaning}; ${range}` : v.meaning, ...common }];
    return SERVICES.map((service) => {
      const ops = CATALOGUE.filter((op) => op.service === service).map((op) => op.id);
      return {
        name: v.name.replace('<SERVICE>', service.toUpperCase()),
        description: `origin of ${SERVICE_NAMES[service]} (${ops.join(', ')}) when it differs from SVC_GATEWAY_URL; a path prefix is allowed`,
        ...common,
      };
    });
  });
}

/** server.json with its variables made anew; the rest is kept as written. */
export function serverJson(current: string): string {
  const server = JSON.parse(current) as { packages: { environmentVariables: unknown[] }[] };
  const [npm, ...others] = server.packages;
  const packages = [{ ...npm!, environmentVariables: serverJsonVariables() }, ...others];
  return `${JSON.stringify({ ...server, packages }, null, 2)}\n`;
}
