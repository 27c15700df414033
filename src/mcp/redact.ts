/** Replaces every occurrence of a secret. Upstreams sometimes echo headers back in error details. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Also the JSON-escaped spelling, since results and error bodies are JSON text.
    for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1)])) {
      if (form.length >= 4 && out.includes(form)) out = out.split(form).join('[redacted]');
    }
  }
  return out;
}
