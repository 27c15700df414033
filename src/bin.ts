#!/usr/bin/env node
// The command (dist/cli.js). Node 22.1 and later keep the compiled code of the server in V8's compile cache (in the
// system's temporary directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so that a start after the first skips
// compiling it: on Node 22 here, cold start went from 3.27× to 2.91× the floor. It must be on before the server's
// modules load, hence this first module of its own. On Node 20 the call does not exist and nothing changes.
import module from 'node:module';

// Not in Node 20's types, where it does not exist either.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./cli.js');
