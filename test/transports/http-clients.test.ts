import { describe, expect, it } from 'vitest';
import {
  AUTH_BACKOFF,
  FailureBackoff,
  clientAddress,
  clientKey,
  trustedProxies,
} from '../../src/transports/http-clients.js';
import { parseAddressOrBlock } from '../../src/util/addresses.js';

/** A request as clientAddress sees it: the peer and the headers. */
const request = (peer: string, forwardedFor?: string | string[]) => ({
  socket: { remoteAddress: peer } as never,
  headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
});

describe('client address (unit)', () => {
  it('is the peer when no proxy is trusted: X-Forwarded-For is ignored', () => {
    expect(clientAddress(request('203.0.113.5', '198.51.100.1'), undefined)).toBe('203.0.113.5');
    expect(clientAddress(request('::ffff:203.0.113.5'), undefined)).toBe('203.0.113.5');
    // A proxy that is not listed cannot speak for anyone.
    expect(clientAddress(request('10.0.0.2', '198.51.100.1'), trustedProxies(['10.0.0.1']))).toBe('10.0.0.2');
  });

  it('behind a trusted proxy: the rightmost hop that is not a trusted proxy; what the client wrote is left of it', () => {
    const trusted = trustedProxies(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
    expect(clientAddress(request('127.0.0.1', '203.0.113.5'), trusted)).toBe('203.0.113.5');
    expect(clientAddress(request('::ffff:127.0.0.1', '1.2.3.4, 203.0.113.5'), trusted)).toBe('203.0.113.5');
    expect(clientAddress(request('127.0.0.1', '1.2.3.4, 203.0.113.5, 10.1.2.3'), trusted)).toBe('203.0.113.5');
    expect(clientAddress(request('127.0.0.1', ['1.2.3.4', '203.0.113.5']), trusted)).toBe('203.0.113.5');
    expect(clientAddress(request('fd00::7', '2001:db8::1'), trusted)).toBe('2001:db8::1');
    // Ports and brackets some proxies add.
    expect(clientAddress(request('127.0.0.1', '203.0.113.5:51234'), trusted)).toBe('203.0.113.5');
    expect(clientAddress(request('127.0.0.1', '[2001:db8::1]:443'), trusted)).toBe('2001:db8::1');
    // No header: the proxy itself; every hop trusted: the leftmost.
    expect(clientAddress(request('127.0.0.1'), trusted)).toBe('127.0.0.1');
    expect(clientAddress(request('127.0.0.1', '10.0.0.9, 10.0.0.8'), trusted)).toBe('10.0.0.9');
  });

  it('keys: IPv4 as is, IPv6 by its /64, each loopback address as is, none for an unknown peer', () => {
    expect(clientKey('203.0.113.5')).toBe('203.0.113.5');
    expect(clientKey('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    for (const loopback of ['127.0.0.1', '127.8.9.1', '::1']) expect(clientKey(loopback), loopback).toBe(loopback);
    expect(clientKey('')).toBeUndefined();
    expect(clientKey('x'.repeat(100))).toHaveLength(64);
  });

  it('reads addresses and CIDR blocks, and nothing else', () => {
    expect(parseAddressOrBlock('127.0.0.1')).toEqual({ address: '127.0.0.1', family: 'ipv4' });
    expect(parseAddressOrBlock(' 10.0.0.0/8 ')).toEqual({ address: '10.0.0.0', family: 'ipv4', prefix: 8 });
    expect(parseAddressOrBlock('fd00::/8')).toEqual({ address: 'fd00::', family: 'ipv6', prefix: 8 });
    for (const bad of ['localhost', '10.0.0.0/33', '::/129', '10.0.0.1/8/8', '10.0.0/8', '', '1.2.3.4/x']) {
      expect(parseAddressOrBlock(bad), bad).toBeUndefined();
    }
    expect(trustedProxies([])).toBeUndefined();
  });
});

describe('failed token attempts (unit)', () => {
  const backoff = (options: Partial<ConstructorParameters<typeof FailureBackoff>[0]> = {}) => {
    const clock = { now: 0 };
    return { clock, backoff: new FailureBackoff({ ...AUTH_BACKOFF, now: () => clock.now, ...options }) };
  };

  it('5 free failures, then refused for 1 s, 2 s, 4 s ... up to 60 s after each further one', () => {
    const { clock, backoff: b } = backoff();
    for (let i = 0; i < 5; i += 1) expect(b.fail('203.0.113.5')).toBe(0);
    expect(b.waitMs('203.0.113.5')).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      const wait = b.fail('203.0.113.5');
      waits.push(wait);
      expect(b.waitMs('203.0.113.5')).toBe(wait);
      clock.now += wait; // the client retries as soon as it may
      expect(b.waitMs('203.0.113.5')).toBe(0);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    expect(b.waitMs('198.51.100.7')).toBe(0); // others are not affected
  });

  it('forgets a client after 15 min without a failure', () => {
    const { clock, backoff: b } = backoff();
    for (let i = 0; i < 7; i += 1) b.fail('203.0.113.5');
    clock.now += 15 * 60_000;
    expect(b.waitMs('203.0.113.5')).toBe(0);
    expect(b.fail('203.0.113.5')).toBe(0); // counts from 1 again
  });

  it('remembers at most maxClients, dropping the stalest first', () => {
    const { clock, backoff: b } = backoff({ maxClients: 100 });
    for (let i = 0; i < 6; i += 1) b.fail('victim-of-its-own-typos');
    for (let i = 0; i < 1000; i += 1) {
      clock.now += 1;
      b.fail(`10.0.${i >> 8}.${i & 255}`);
      expect(b.size).toBeLessThanOrEqual(100);
    }
    expect(b.size).toBe(100);
    expect(b.fail('victim-of-its-own-typos')).toBe(0); // dropped: it counts from 1 again
  });
});
