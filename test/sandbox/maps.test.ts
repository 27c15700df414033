import { describe, expect, it } from 'vitest';
import { GAZETTEER } from '../../src/sandbox/maps/gazetteer.js';
import { toXml } from '../../src/sandbox/maps/xml.js';
import { mapsRoutes } from '../../src/sandbox/services/maps.js';
import type { SandboxRequest, SandboxResponse } from '../../src/sandbox/types.js';

const ctx = { now: () => Date.UTC(2025, 0, 1) };

async function gc(query: string): Promise<SandboxResponse> {
  const [route] = mapsRoutes();
  const req: SandboxRequest = {
    method: 'GET',
    rawUri: `/map-reversegeocode/v2/gc?${query}`,
    params: {},
    query: new URLSearchParams(query),
    headers: {},
    body: undefined,
  };
  return route!.handle(req, ctx);
}

interface Center {
  crs: string;
  x: number;
  y: number;
}
interface AreaJson {
  name: string;
  coords: { center: Center };
  alias?: string;
}
interface ResultJson {
  name: string;
  code: { id: string; type: string; mappingId: string };
  region: Record<string, AreaJson>;
  land?: Record<string, unknown> & { coords: { center: Center } };
}
interface Answer {
  status: { code: number; name: string; message: string };
  results: ResultJson[];
}

async function json(query: string, expectedStatus = 200): Promise<Answer> {
  const res = await gc(`${query}&output=json`);
  expect(res.status, JSON.stringify(res.json)).toBe(expectedStatus);
  return res.json as Answer;
}

const CITY_HALL = '126.97843,37.56668';
const EMPTY_AREA = { name: '', coords: { center: { crs: '', x: 0, y: 0 } } };
const ALL = 'legalcode,admcode,addr,roadaddr';

describe('sandbox E5 reverse geocoding: route', () => {
  it('serves GET /map-reversegeocode/v2/gc with the lower-case application key pair', () => {
    expect(mapsRoutes().map((r) => [r.method, r.pattern, r.auth])).toEqual([
      ['GET', '/map-reversegeocode/v2/gc', 'app-key-lower'],
    ]);
  });
});

describe('sandbox E5 reverse geocoding: orders', () => {
  it('answers legalcode and admcode by default', async () => {
    const answer = await json(`coords=${CITY_HALL}`);
    expect(answer.status).toEqual({ code: 0, name: 'ok', message: 'done' });
    expect(answer.results.map((r) => r.name)).toEqual(['legalcode', 'admcode']);
  });

  it('answers in the order entered', async () => {
    const answer = await json(`coords=${CITY_HALL}&orders=roadaddr,addr,admcode,legalcode`);
    expect(answer.results.map((r) => r.name)).toEqual(['roadaddr', 'addr', 'admcode', 'legalcode']);
  });

  it('legalcode: statutory dong, code type L, area0-area4', async () => {
    const [legal] = (await json(`coords=${CITY_HALL}&orders=legalcode`)).results;
    expect(legal!.code).toEqual({ id: '1114010300', type: 'L', mappingId: '09140103' });
    expect(legal!.region.area0).toEqual({ name: 'kr', coords: { center: { crs: '', x: 0, y: 0 } } });
    expect(legal!.region.area1).toEqual({
      name: '서울특별시',
      alias: '서울',
      coords: { center: { crs: 'EPSG:4326', x: 126.9783882, y: 37.5666103 } },
    });
    expect(legal!.region.area2!.name).toBe('중구');
    expect(legal!.region.area3!.name).toBe('태평로1가');
    expect(legal!.region.area4).toEqual(EMPTY_AREA);
    expect(legal!.land).toBeUndefined();
  });

  it('admcode: administrative dong, code type A', async () => {
    const [adm] = (await json(`coords=${CITY_HALL}&orders=admcode`)).results;
    expect(adm!.code).toEqual({ id: '1114055000', type: 'A', mappingId: '09140550' });
    expect(adm!.region.area3!.name).toBe('명동');
  });

  it('addr: land-lot address with cadastral type and numbers', async () => {
    const [addr] = (await json(`coords=127.10522,37.35951&orders=addr`)).results;
    expect(addr!.code.type).toBe('L');
    expect(addr!.region.area2!.name).toBe('성남시 분당구');
    expect(addr!.region.area3!.name).toBe('정자동');
    expect(addr!.land).toMatchObject({ type: '1', number1: '178', number2: '1', name: '' });
    for (let i = 0; i < 5; i++) expect(addr!.land![`addition${i}`]).toEqual({ type: '', value: '' });
    expect(addr!.land!.coords.center).toEqual({ crs: 'EPSG:4326', x: 127.10522, y: 37.35951 });
  });

  it('roadaddr: road name, building number and the addition0-4 entries', async () => {
    const [road] = (await json(`coords=${CITY_HALL}&orders=roadaddr`)).results;
    expect(road!.land).toMatchObject({
      type: '',
      name: '세종대로',
      number1: '110',
      number2: '',
      addition0: { type: 'building', value: '서울특별시청' },
      addition1: { type: 'zipcode', value: '04524' },
      addition2: { type: 'roadGroupCode', value: '111403100011' },
      addition3: { type: '', value: '' },
      addition4: { type: '', value: '' },
    });
    for (const place of GAZETTEER) if (place.roadaddr) expect(place.roadaddr.roadGroupCode).toMatch(/^\d{12}$/);
  });

  it('accepts codes in lower case and ignores request=coordsToaddr', async () => {
    const answer = await json(
      `request=coordsToaddr&coords=${CITY_HALL}&sourcecrs=epsg:4326&targetcrs=epsg:4326&orders=LegalCode`,
    );
    expect(answer.results.map((r) => r.name)).toEqual(['legalcode']);
  });
});

describe('sandbox E5 reverse geocoding: behaviour rules', () => {
  it('rule 1: on the coast, legalcode/admcode resolve but addr/roadaddr do not', async () => {
    const answer = await json(`coords=129.1587,35.1586&orders=${ALL}`);
    expect(answer.results.map((r) => r.name)).toEqual(['legalcode', 'admcode']);
    const none = await json(`coords=129.1587,35.1586&orders=addr,roadaddr`);
    expect(none.status.code).toBe(3);
    expect(none.results).toEqual([]);
  });

  it('rule 2: inside a ri of an eup, admcode carries code type L and the ri', async () => {
    const [legal, adm] = (await json(`coords=127.49255,37.49261&orders=legalcode,admcode`)).results;
    expect(adm!.code.type).toBe('L');
    expect(adm!.code.id).toBe(legal!.code.id);
    expect(adm!.region.area3!.name).toBe('양평읍');
    expect(adm!.region.area4!.name).toBe('양근리');
    expect(adm!.region.area4!.coords.center.crs).toBe('EPSG:4326');
  });

  it('rule 3: over the sea there are no results (code 3, HTTP 200)', async () => {
    const answer = await json('coords=129.5,35.0');
    expect(answer.status.code).toBe(3);
    expect(answer.status.name).toBe('no results');
    expect(answer.results).toEqual([]);
  });

  it('outside the gazetteer there are no results either', async () => {
    expect((await json('coords=139.6917,35.6895')).status.code).toBe(3);
    expect((await json('coords=126.5,33.3')).status.code).toBe(3);
  });

  it('rule 4: Sejong-si has no si/gun/gu, so area2 is the empty area', async () => {
    const [legal] = (await json(`coords=127.25911,36.50383&orders=legalcode`)).results;
    expect(legal!.region.area1!.name).toBe('세종특별자치시');
    expect(legal!.region.area2).toEqual(EMPTY_AREA);
    expect(legal!.region.area3!.name).toBe('어진동');
  });

  it('type S: an administrative dong named like the statutory dong of another area', async () => {
    const [adm] = (await json(`coords=127.10834,37.36700&orders=admcode`)).results;
    expect(adm!.code.type).toBe('S');
    expect(adm!.region.area3!.name).toBe('정자동');
  });

  it('every gazetteer place resolves at its own point, with every order it has', async () => {
    for (const place of GAZETTEER) {
      const answer = await json(`coords=${place.point.join(',')}&orders=${ALL}`);
      expect(answer.status.code, place.id).toBe(0);
      expect(answer.results[0]!.code.id).toBe(place.legal.id);
      expect(answer.results.length).toBe(2 + (place.addr ? 1 : 0) + (place.roadaddr ? 1 : 0));
    }
  });
});

describe('sandbox E5 reverse geocoding: output formats', () => {
  it('answers XML when output is omitted (the upstream default)', async () => {
    const res = await gc(`coords=${CITY_HALL}&orders=legalcode`);
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/xml;charset=utf-8');
    expect(res.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<response>/);
    expect(res.text).toContain('<code>0</code>');
    expect(res.text).toContain('<name>태평로1가</name>');
    expect(res.text).toContain('<alias>서울</alias>');
    expect(res.json).toBeUndefined();
  });

  it('answers XML for output=xml too, and for no results', async () => {
    const res = await gc('coords=129.5,35.0&output=XML');
    expect(res.contentType).toBe('application/xml;charset=utf-8');
    expect(res.text).toContain('<code>3</code>');
    expect(res.text).toContain('<results/>');
  });

  it('wraps JSON in the callback for JSONP', async () => {
    const res = await gc(`coords=${CITY_HALL}&output=json&callback=handleGeo`);
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/javascript;charset=utf-8');
    const match = /^handleGeo\((.*)\)$/s.exec(res.text ?? '');
    expect(match).not.toBeNull();
    const inner = JSON.parse(match![1]!) as Answer;
    expect(inner.status.code).toBe(0);
    expect(inner.results.map((r) => r.name)).toEqual(['legalcode', 'admcode']);
  });

  it('refuses a callback without output=json (code 100)', async () => {
    const noOutput = await gc(`coords=${CITY_HALL}&callback=cb`);
    expect(noOutput.status).toBe(400);
    expect(noOutput.text).toContain('<code>100</code>');
    expect(noOutput.text).toContain('<name>invalid request</name>');
    const xml = await gc(`coords=${CITY_HALL}&output=xml&callback=cb`);
    expect(xml.status).toBe(400);
    expect(xml.text).toContain('<code>100</code>');
  });

  it('refuses a callback that is not an identifier', async () => {
    const res = await gc(`coords=${CITY_HALL}&output=json&callback=${encodeURIComponent('alert(1);x')}`);
    expect(res.status).toBe(400);
    expect((res.json as Answer).status.code).toBe(100);
  });

  it('escapes XML text', () => {
    expect(toXml({ a: '<&>"\'', b: [], c: { d: 1 } })).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<response>\n  <a>&lt;&amp;&gt;&quot;&apos;</a>\n  <b/>\n  <c>\n    <d>1</d>\n  </c>\n</response>\n',
    );
  });
});

describe('sandbox E5 reverse geocoding: invalid requests (HTTP 400, code 100)', () => {
  it.each([
    ['', 'coords is required'],
    ['coords=', 'coords is required'],
    ['coords=127.0', 'coords must be'],
    ['coords=abc,def', 'coords must be'],
    ['coords=1,2,3', 'coords must be'],
    [`coords=${CITY_HALL}&sourcecrs=EPSG:5179`, 'sourcecrs'],
    [`coords=${CITY_HALL}&targetcrs=WGS84`, 'targetcrs'],
    [`coords=${CITY_HALL}&orders=legalcode,zipcode`, 'orders'],
    ['coords=200,37', 'outside the range'],
  ])('%s', async (query, message) => {
    const answer = await json(query, 400);
    expect(answer.status.code).toBe(100);
    expect(answer.status.name).toBe('invalid request');
    expect(answer.status.message).toContain(message);
  });

  it('refuses an unknown output (answered in JSON)', async () => {
    const res = await gc(`coords=${CITY_HALL}&output=yaml`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: { code: 100, name: 'invalid request' } });
  });
});
