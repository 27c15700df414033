// Stands in for zod's locales/index.js in the bundle (see scripts/build-plugins.mjs): zod re-exports its ~50
// translations of error messages as `z.locales`, and the namespace keeps all of them in the bundle. The server
// uses the English one (zod's default); the others cost start-up time only.
export { default as en } from 'zod/v4/locales/en.js';
