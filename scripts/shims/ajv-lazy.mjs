// Stands in for the SDK's validation/ajv-provider.js in the bundle (see scripts/build-plugins.mjs). The SDK's Server
// builds an Ajv instance, with every format of ajv-formats, in its constructor, for one use: checking a client's
// answer to an elicitation request. This server never elicits; the instance is built on first use instead.
/* global require */
export class AjvJsonSchemaValidator {
  #ajv;
  #real;
  constructor(ajv) {
    this.#ajv = ajv;
  }
  getValidator(schema) {
    // require() of the original module is bundled by esbuild and evaluated here, on first call, not at start-up.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { AjvJsonSchemaValidator: Real } = require('#sdk-ajv-provider');
    this.#real ??= new Real(this.#ajv);
    return this.#real.getValidator(schema);
  }
}
