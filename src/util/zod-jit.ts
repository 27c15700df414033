import * as z from 'zod';

/**
 * zod compiles a parser for an object schema (`new Function`) the first time it parses with it: that pays over many
 * parses, and is code no cache holds. A start builds the SDK's hundreds of protocol schemas and parses its first
 * requests with them. So main.ts imports this module first, and every schema made from then on parses without
 * compiling (zod reads the setting as it makes a schema): the SDK's, made as it loads and on its first requests, and
 * those of the chunks loaded on demand. Checking a message costs about the same either way (3.4–3.5 µs for a
 * `tools/call` request and its envelope, in process). The catalogue's schemas, which read every argument and every
 * answer, are made with the compiling on (withJit).
 */
z.config({ jitless: true });

/** Makes schemas with zod's compiled parsers, whatever the setting of the process. */
export function withJit<T>(build: () => T): T {
  const { jitless } = z.config();
  z.config({ jitless: false });
  try {
    return build();
  } finally {
    z.config({ jitless });
  }
}
