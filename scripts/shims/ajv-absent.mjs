// Stands in for the SDK's validation/ajv-provider.js in the bundle (see scripts/build-plugins.mjs). The SDK's Server
// uses its JSON Schema validator for one thing: checking a client's answer to an elicitation request. This server
// never elicits, so Ajv (with ajv-formats and fast-uri, 130 KB of code to compile at every start) is left out.
export class AjvJsonSchemaValidator {
  getValidator() {
    throw new Error('JSON Schema validation of elicitation answers is not built into svc-platform-mcp (it never elicits)');
  }
}
