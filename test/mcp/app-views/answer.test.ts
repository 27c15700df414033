import { describe, expect, it } from 'vitest';
import { answerOf, askedOf } from '../../../src/mcp/app-views/reverse-geocode/answer.js';

const area = (name: string, x = 0, y = 0, crs = name ? 'EPSG:4326' : '') => ({
  name,
  coords: { center: { crs, x, y } },
});

describe('what the view reads of an answer', () => {
  it('takes the defaults of the tool where the call left arguments out', () => {
    expect(askedOf({ coords: ' 127.1 , 37.3 ' })).toEqual({
      point: { crs: 'EPSG:4326', x: 127.1, y: 37.3, written: '127.1, 37.3' },
      sourcecrs: 'EPSG:4326',
      targetcrs: 'EPSG:4326',
      orders: ['legalcode', 'admcode'],
      output: 'json',
    });
    expect(askedOf({ coords: 'nowhere', sourcecrs: 'svc:2048' }).point).toBeUndefined();
    expect(askedOf(undefined).sourcecrs).toBe('EPSG:4326');
  });

  it('reads a road address with its building and postal code, and a mountain lot with 산', () => {
    const region = {
      area0: area('kr'),
      area1: { ...area('경기도', 127, 37), alias: '경기' },
      area2: area('양평군', 0, 0, ''),
      area3: area('양평읍'),
      area4: area('양근리', 127.49, 37.49),
    };
    const answer = answerOf(
      {
        status: { code: 0, name: 'ok', message: 'done' },
        results: [
          {
            name: 'addr',
            code: { id: '1', type: 'L' },
            region,
            land: { type: '2', number1: '12', number2: '3', coords: { center: { crs: 'EPSG:4326', x: 1, y: 2 } } },
          },
          {
            name: 'roadaddr',
            code: { id: '1', type: 'L' },
            region,
            land: {
              name: '역전길',
              number1: '30',
              addition0: { type: 'building', value: '양평역' },
              addition1: { type: 'zipcode', value: '12554' },
            },
          },
        ],
      },
      askedOf({ coords: '127.49,37.49', orders: 'addr,roadaddr' }),
    );
    expect(answer.lot).toMatchObject({
      korean: '경기도 양평군 양평읍 양근리 산 12-3',
      center: { crs: 'EPSG:4326', x: 1, y: 2 },
    });
    expect(answer.road).toMatchObject({ korean: '경기도 양평군 역전길 30', building: '양평역', zipcode: '12554' });
    expect(answer.road?.center).toBeUndefined();
    expect(answer.areas.map((a) => a.name)).toEqual(['경기도', '양평군', '양평읍', '양근리']);
    expect(answer.areas[0]).toMatchObject({ alias: '경기', center: { x: 127, y: 37 } });
    // An area with no data (empty crs, 0, 0) has no centre.
    expect(answer.areas[1]!.center).toBeUndefined();
    expect(answer.addressesAsked).toBe(true);
  });

  it('takes null, missing and odd members as absent (a tolerant reader)', () => {
    const answer = answerOf(
      {
        status: null,
        results: [null, { name: 'legalcode', code: null, region: { area1: null, area3: { name: '중동' } } }, 7],
      },
      askedOf({ coords: '129.1,35.1' }),
    );
    expect(answer.resultCount).toBe(1);
    expect(answer.status).toBeUndefined();
    expect(answer.legal).toEqual({ name: '중동', code: '', type: '' });
    expect(answer.admin).toBeUndefined();
    expect(answer.addressesAsked).toBe(false);
    expect(answerOf(undefined, askedOf({})).resultCount).toBe(0);
  });
});
