import { describe, expect, it } from 'vitest';
import { ConnectionShares } from '../../src/transports/http-connections.js';

/** A connection that records its closing. */
function connection(name: string, closed: string[]) {
  return { name, destroy: () => void closed.push(name) };
}

describe('ConnectionShares (unit)', () => {
  it('a lone address may hold every connection; over the cap its least recently active idle one makes room', () => {
    const closed: string[] = [];
    let counted = 0;
    const shares = new ConnectionShares<ReturnType<typeof connection>>(3, () => (counted += 1));
    const [a1, a2, a3, a4] = ['a1', 'a2', 'a3', 'a4'].map((n) => connection(n, closed));
    shares.accept(a1!, 'A');
    shares.accept(a2!, 'A');
    shares.accept(a3!, 'A');
    const end = shares.begin(a1!); // serving a request: never closed
    shares.accept(a4!, 'A');
    expect(closed).toEqual(['a2']);
    expect(shares.size).toBe(3);
    // a1's request ended just now: it is the most recently active; a3 is closed next.
    end();
    shares.accept(connection('a5', closed), 'A');
    expect(closed).toEqual(['a2', 'a3']);
    expect(counted).toBe(2);
  });

  it('under contention the address holding the most gives way; a newcomer at a tie gives way itself', () => {
    const closed: string[] = [];
    const shares = new ConnectionShares<ReturnType<typeof connection>>(4, () => {});
    for (const n of ['a1', 'a2', 'a3']) shares.accept(connection(n, closed), 'A');
    shares.accept(connection('b1', closed), 'B');
    shares.accept(connection('b2', closed), 'B'); // A holds 3, B would hold 2: A's oldest goes
    expect(closed).toEqual(['a1']);
    shares.accept(connection('b3', closed), 'B'); // A holds 2, B would hold 3: B's own oldest goes
    expect(closed).toEqual(['a1', 'b1']);
    // A tie: A would hold 3 as B does; the newcomer gives way itself, so that it takes no place from an equal.
    const tie: string[] = [];
    const even = new ConnectionShares<ReturnType<typeof connection>>(5, () => {});
    for (const n of ['a1', 'a2']) even.accept(connection(n, tie), 'A');
    for (const n of ['b1', 'b2', 'b3']) even.accept(connection(n, tie), 'B');
    even.accept(connection('a3', tie), 'A');
    expect(tie).toEqual(['a1']);
  });

  it('when every connection in the way is busy, the new one is closed; a forgotten one frees its place', () => {
    const closed: string[] = [];
    const shares = new ConnectionShares<ReturnType<typeof connection>>(2, () => {});
    const a1 = connection('a1', closed);
    const b1 = connection('b1', closed);
    shares.accept(a1, 'A');
    shares.accept(b1, 'B');
    shares.begin(a1);
    shares.begin(b1);
    const c1 = connection('c1', closed);
    shares.accept(c1, 'C');
    expect(closed).toEqual(['c1']);
    expect(shares.size).toBe(2);
    shares.forget(a1);
    shares.accept(connection('c2', closed), 'C');
    expect(closed).toEqual(['c1']);
    expect(shares.size).toBe(2);
  });
});
