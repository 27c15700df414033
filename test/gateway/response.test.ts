import { describe, expect, it } from 'vitest';
import { reverseGeocode } from '../../src/catalogue/maps.js';
import { deleteService } from '../../src/catalogue/recommendation.js';
import { listProducts } from '../../src/catalogue/apigateway.js';
import { ToolFailure } from '../../src/gateway/errors.js';
import { interpretResponse } from '../../src/gateway/response.js';

describe('interpretResponse', () => {
  it('takes an empty 2xx body as an empty result, not malformed JSON', () => {
    expect(interpretResponse(deleteService, { status: 204, contentType: '', text: '' })).toEqual({ kind: 'json', value: {} });
  });

  it('passes a JSONP answer through as text even when labelled application/json', () => {
    const text = 'cb({"status":{"code":0}})';
    expect(interpretResponse(reverseGeocode, { status: 200, contentType: 'application/json', text })).toEqual({ kind: 'text', value: text });
  });

  it('still calls a broken JSON answer malformed for a JSON-only operation', () => {
    expect(() => interpretResponse(listProducts, { status: 200, contentType: 'application/json', text: '{"productPage":' })).toThrow(
      /not valid JSON/,
    );
  });

  it('says when the upstream asked to retry later', () => {
    try {
      interpretResponse(listProducts, { status: 503, contentType: 'text/plain', text: 'busy', retryAfterMs: 7000 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolFailure);
      expect((error as ToolFailure).message).toBe('upstream answered HTTP 503: busy. The upstream asked to retry after 7 s.');
      expect((error as ToolFailure).retryable).toBe(true);
    }
  });
});
