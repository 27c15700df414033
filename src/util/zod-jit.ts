import * as z from 'zod';

/**
 * zod compiles a parser for an object schema (`new Function`) the first time it parses with it: that pays over many
 * parses, and is code no cache holds. A start builds the SDK's hundreds of protocol schemas and parses its first
 * requests with them, so the compiling is off (zod reads the setting as it makes a schema) for what the start builds:
 * main.ts imports this module first, before any module that makes schemas as it loads, and the SDK makes its registries
 * on the first request. Checking a message costs the same either way (about 3.5 µs, `tools/call` and its envelope).
 * The catalogue's schemas, which read every argument and every answer, are made with the compiling on (withJit).
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
