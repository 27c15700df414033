import * as z from 'zod';
import { maybeArray, maybeBoolean, maybeInteger, maybeString } from './answers.js';
import { long, pathSegment } from './fields.js';
import { defineOperation } from './types.js';

/** E6's method names, in the spec's order. */
export const METHOD_NAMES = ['ANY', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

export const createMethodResponse = defineOperation({
  id: 'E6',
  name: 'apigateway_create_method_response',
  title: 'Add an API method response',
  description: 'Adds a response to a method of an API resource in a gateway product. No tool reads method responses.',
  service: 'apigateway',
  method: 'POST',
  path: '/api/v1/products/{productId}/apis/{apiId}/resources/{resourceId}/methods/{methodName}/responses',
  auth: 'gateway-signature',
  input: () =>
    z.strictObject({
      productId: pathSegment(),
      apiId: pathSegment(),
      resourceId: pathSegment(),
      methodName: z.enum(METHOD_NAMES),
      statusCode: z.int().min(100).max(599),
      responseDescription: z.string().max(2000).optional(),
    }),
  output: () =>
    z.looseObject({
      methodResponseDto: z.looseObject({
        tenantId: maybeString(),
        apiId: maybeString(),
        resourceId: maybeString(),
        methodCode: maybeString(),
        statusCode: maybeInteger(),
        responseDescription: maybeString(),
        modifier: maybeString(),
      }),
    }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
});

export const listProducts = defineOperation({
  id: 'E7',
  name: 'apigateway_list_products',
  title: 'List API gateway products',
  description: 'Lists gateway products, filtered and paged. Counts over 2^53 come as digit strings.',
  service: 'apigateway',
  method: 'GET',
  path: '/api/v1/products',
  paging: (args, { shown, total }) => {
    // offset and limit may be decimal strings up to 2^63-1: counted as BigInt.
    const next = BigInt(args.offset ?? 0) + BigInt(shown);
    const left = BigInt(total - shown);
    const step = BigInt(Math.max(1, shown));
    return (
      `ask with offset ${next} and limit ${left} (offsets ${next}-${next + left - 1n}), or, as fewer may fit in ` +
      `one result, with limit ${step} at offsets ${next}, ${next + step}, … through ${next + left - 1n}`
    );
  },
  auth: 'gateway-signature',
  input: () =>
    z.strictObject({
      offset: long(0).optional().describe('First item; as a decimal string up to 2^63-1'),
      limit: long(1).optional().describe('Max items; as a decimal string up to 2^63-1'),
      productName: z.string().max(100).optional().describe('Name filter; may match part of a name'),
      isPublished: z.boolean().optional(),
      subscriptionCode: z.enum(['PUBLIC', 'PROTECTED']).optional().describe('PROTECTED needs publisher approval'),
      hasDeployedStage: z.boolean().optional(),
      hasStageNotAssociatedWithUsagePlanId: z.string().optional().describe('Usage plan ID to exclude'),
    }),
  output: () =>
    z.looseObject({
      initialCount: maybeInteger().describe('The spec gives it no meaning: count products with productPage.total'),
      productPage: z.looseObject({
        total: maybeInteger().describe('Total of the paged list (not initialCount)'),
        content: maybeArray(
          z.looseObject({
            productId: maybeString(),
            invokeId: maybeString(),
            tenantId: maybeString(),
            productName: maybeString(),
            productDescription: maybeString(),
            isPublished: maybeBoolean(),
            subscriptionCode: maybeString(),
            hasDeployedStage: maybeBoolean(),
            modifier: maybeString(),
            modTime: maybeString(),
            domainCode: maybeString(),
            zoneCode: maybeString(),
            isDeleted: maybeBoolean(),
            disabled: maybeBoolean(),
            permission: maybeString(),
            actionName: maybeString(),
          }),
        ),
      }),
    }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});
