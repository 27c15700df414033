import type { jsonSchemaValidator } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';

/**
 * The SDK checks a client's answer to an elicitation request against the form's JSON Schema, with Ajv. Left to
 * itself it builds an Ajv instance (meta-schemas, formats: several milliseconds) for every server object, which
 * is at every start and, over stateless HTTP, at every request. This one is built on the first elicitation and
 * shared by every server of the process.
 */
export function sharedLazyValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}
