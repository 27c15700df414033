import type { KnownNames } from '../telemetry/telemetry.js';
import type { Completers, CompletionSources } from './completion.js';

/**
 * The names a server serves, for telemetry to record as they are (any other is `_OTHER`): its tools, its prompts, its
 * resources, and the URIs of its templates whose value is one the template's completion offers (a language code).
 */
export function knownNames(tools: ReadonlySet<string>, sources: CompletionSources): KnownNames {
  return {
    tool: (name) => tools.has(name),
    prompt: (name) => sources.prompts.has(name),
    resource: (uri) =>
      sources.resources.has(uri) ||
      [...sources.templates].some(([template, completers]) => fills(template, completers, uri)),
  };
}

/** Whether `uri` is the template of one variable filled with a value its completer offers as it is. */
function fills(template: string, completers: Completers, uri: string): boolean {
  const open = template.indexOf('{');
  const close = template.indexOf('}', open);
  if (open < 0 || close < 0 || template.includes('{', close)) return false;
  const [prefix, suffix] = [template.slice(0, open), template.slice(close + 1)];
  if (uri.length < prefix.length + suffix.length || !uri.startsWith(prefix) || !uri.endsWith(suffix)) return false;
  const value = uri.slice(prefix.length, uri.length - suffix.length);
  return completers[template.slice(open + 1, close)]?.(value).includes(value) ?? false;
}
