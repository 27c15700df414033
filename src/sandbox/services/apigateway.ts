import { METHOD_NAMES, createMethodResponse, listProducts as listProductsOp } from '../../catalogue/apigateway.js';
import { badRequest, conflict, fail, notFound } from '../errors.js';
import { apigatewayFixtures, TENANT_ID, type Product } from '../fixtures/apigateway.js';
import { routeOf } from '../route-of.js';
import { kstIso } from '../time.js';
import type { Route, SandboxRequest, SandboxResponse, SandboxContext } from '../types.js';
import { oneOf, optionalString, queryBoolean, requireInt, requireObject } from '../validate.js';

const INT64_MAX = 9223372036854775807n;
/** Who the sandbox says made a change; the real service records the caller's account. */
const MODIFIER = 'sandbox-user';

/**
 * E6 adds a response to an existing method (a method the resource does not define is 404, like an unknown
 * product, API or resource); adding a status code the method already has is refused with HTTP 409 and
 * errorCode 100. The product's modTime and modifier move. methodCode is the gateway's numeric code of the
 * method name (ANY 0000, GET 0001, ... HEAD 0007).
 *
 * E7 filters, then pages: initialCount is the number of products of the tenant before filtering,
 * productPage.total the number after filtering. offset/limit are parsed as 64-bit integers (BigInt), so
 * values above 2^53-1 are exact; no limit means "all the rest". productName is a case-insensitive substring
 * match; an empty hasStageNotAssociatedWithUsagePlanId is ignored.
 */
export function apigatewayRoutes(): Route[] {
  const products = apigatewayFixtures();
  return [
    routeOf(listProductsOp, (req) => listProducts(products, req.query)),
    routeOf(createMethodResponse, (req, ctx) => addMethodResponse(products, req, ctx)),
  ];
}

function listProducts(products: Product[], query: URLSearchParams): SandboxResponse {
  const offset = queryLong(query, 'offset', 0n) ?? 0n;
  const limit = queryLong(query, 'limit', 1n);
  const name = query.get('productName');
  if (name !== null && [...name].length > 100) fail(badRequest('productName must be at most 100 characters'));
  const isPublished = queryBoolean(query, 'isPublished');
  const hasDeployedStage = queryBoolean(query, 'hasDeployedStage');
  const code = query.get('subscriptionCode');
  if (code !== null) oneOf(code, ['PUBLIC', 'PROTECTED'], 'subscriptionCode');
  const usagePlanId = query.get('hasStageNotAssociatedWithUsagePlanId') || undefined;

  const matching = [...products]
    .sort((a, b) => (a.productName < b.productName ? -1 : a.productName > b.productName ? 1 : 0))
    .filter(
      (p) =>
        (name === null || p.productName.toLowerCase().includes(name.toLowerCase())) &&
        (isPublished === undefined || p.isPublished === isPublished) &&
        (hasDeployedStage === undefined || p.stages.length > 0 === hasDeployedStage) &&
        (code === null || p.subscriptionCode === code) &&
        (usagePlanId === undefined || p.stages.some((s) => !s.usagePlanIds.includes(usagePlanId))),
    );
  // Clamp the 64-bit window to the list before leaving BigInt, so nothing is rounded on the way.
  const size = BigInt(matching.length);
  const start = offset > size ? size : offset;
  const end = limit === undefined || start + limit > size ? size : start + limit;
  return {
    status: 200,
    json: {
      initialCount: products.length,
      productPage: { total: matching.length, content: matching.slice(Number(start), Number(end)).map(view) },
    },
  };
}

function queryLong(query: URLSearchParams, name: string, min: bigint): bigint | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,19}$/.test(raw)) fail(badRequest(`${name} must be an integer from ${min} to ${INT64_MAX}`));
  const value = BigInt(raw);
  if (value < min || value > INT64_MAX) fail(badRequest(`${name} must be an integer from ${min} to ${INT64_MAX}`));
  return value;
}

function view(p: Product): Record<string, unknown> {
  return {
    productId: p.productId,
    invokeId: p.invokeId,
    tenantId: TENANT_ID,
    productName: p.productName,
    productDescription: p.productDescription,
    isPublished: p.isPublished,
    subscriptionCode: p.subscriptionCode,
    hasDeployedStage: p.stages.length > 0,
    modifier: p.modifier,
    modTime: p.modTime,
    domainCode: 'PUB',
    zoneCode: 'KR',
    isDeleted: false,
    disabled: false,
    permission: 'Manager',
    actionName: 'getProductList',
  };
}

function addMethodResponse(products: Product[], req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  const { productId, apiId, resourceId } = req.params;
  const methodName = oneOf(req.params.methodName, METHOD_NAMES, 'method-name');
  const input = requireObject(req.body, 'request body');
  const statusCode = requireInt(input, 'statusCode', { min: 100, max: 599 });
  const responseDescription = optionalString(input, 'responseDescription', { maxLength: 2000 }) ?? '';

  const product =
    products.find((p) => p.productId === productId) ?? fail(notFound(`product ${productId} does not exist`));
  const api =
    product.apis.find((a) => a.apiId === apiId) ??
    fail(notFound(`API ${apiId} does not exist in product ${productId}`));
  const resource =
    api.resources.find((r) => r.resourceId === resourceId) ??
    fail(notFound(`resource ${resourceId} does not exist in API ${apiId}`));
  const method =
    resource.methods.find((m) => m.name === methodName) ??
    fail(notFound(`method ${methodName} is not defined on resource ${resource.resourcePath}`));
  if (method.responses.some((r) => r.statusCode === statusCode)) {
    fail(conflict(`${methodName} ${resource.resourcePath} already has a response for status code ${statusCode}`));
  }

  method.responses.push({ statusCode, responseDescription, modifier: MODIFIER });
  product.modifier = MODIFIER;
  product.modTime = kstIso(ctx.now(), true);
  return {
    status: 200,
    json: {
      methodResponseDto: {
        tenantId: TENANT_ID,
        apiId: api.apiId,
        resourceId: resource.resourceId,
        methodCode: String(METHOD_NAMES.indexOf(methodName)).padStart(4, '0'),
        statusCode,
        responseDescription,
        modifier: MODIFIER,
      },
    },
  };
}
