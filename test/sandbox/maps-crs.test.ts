import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { createCrsConverter, parseCrs, SVC_2048_PROJ } from '../../src/sandbox/maps/crs.js';
import { mapsRoutes } from '../../src/sandbox/services/maps.js';
import type { SandboxRequest } from '../../src/sandbox/types.js';

/**
 * Coordinate conversion checked against values computed here, independently of proj4 and of the sandbox:
 * the closed-form spherical Mercator of EPSG:3857, the definition of the transverse Mercator's false origin,
 * Helmert's meridian-arc series, and the Krüger n-series for the transverse Mercator (Karney 2011, to n^4).
 * SVC:2048 is the spec's UTM-K: lon_0 127.5, lat_0 38, k 0.9996, GRS80, false easting 2,000,000 and false
 * northing 1,000,000 (see the discrepancy note in src/sandbox/maps/crs.ts).
 */
const deg = Math.PI / 180;

// EPSG:3857: x = R·λ, y = R·ln(tan(π/4 + φ/2)), R = 6378137.
const R = 6378137;
const mercator = (lon: number, lat: number) => [R * lon * deg, R * Math.log(Math.tan(Math.PI / 4 + (lat * deg) / 2))];

// SVC:2048 as the spec's table gives it.
const UTMK = { lon0: 127.5, lat0: 38, k0: 0.9996, fe: 2_000_000, fn: 1_000_000, a: 6378137, f: 1 / 298.257222101 };
const n = UTMK.f / (2 - UTMK.f);
const e = Math.sqrt(UTMK.f * (2 - UTMK.f));

/** Helmert's series for the meridian arc length from the equator to latitude φ. */
function meridianArc(latDeg: number): number {
  const p = latDeg * deg;
  return (
    (UTMK.a / (1 + n)) *
    ((1 + n ** 2 / 4 + n ** 4 / 64) * p -
      1.5 * (n - n ** 3 / 8) * Math.sin(2 * p) +
      (15 / 16) * (n ** 2 - n ** 4 / 4) * Math.sin(4 * p) -
      (35 / 48) * n ** 3 * Math.sin(6 * p) +
      (315 / 512) * n ** 4 * Math.sin(8 * p))
  );
}

/** Krüger series, forward transverse Mercator. */
function kruger(lon: number, lat: number): [number, number] {
  const A = (UTMK.a / (1 + n)) * (1 + n ** 2 / 4 + n ** 4 / 64);
  const alpha = [
    n / 2 - (2 / 3) * n ** 2 + (5 / 16) * n ** 3 + (41 / 180) * n ** 4,
    (13 / 48) * n ** 2 - (3 / 5) * n ** 3 + (557 / 1440) * n ** 4,
    (61 / 240) * n ** 3 - (103 / 140) * n ** 4,
    (49561 / 161280) * n ** 4,
  ];
  const xiEta = (lonDeg: number, latDeg: number) => {
    const phi = latDeg * deg;
    const lam = (lonDeg - UTMK.lon0) * deg;
    const t = Math.sinh(Math.atanh(Math.sin(phi)) - e * Math.atanh(e * Math.sin(phi)));
    const xiP = Math.atan2(t, Math.cos(lam));
    const etaP = Math.atanh(Math.sin(lam) / Math.sqrt(1 + t * t));
    let xi = xiP;
    let eta = etaP;
    alpha.forEach((a, i) => {
      const j = 2 * (i + 1);
      xi += a * Math.sin(j * xiP) * Math.cosh(j * etaP);
      eta += a * Math.cos(j * xiP) * Math.sinh(j * etaP);
    });
    return [xi, eta] as const;
  };
  const [xi, eta] = xiEta(lon, lat);
  const [xi0] = xiEta(UTMK.lon0, UTMK.lat0);
  return [UTMK.fe + UTMK.k0 * A * eta, UTMK.fn + UTMK.k0 * A * (xi - xi0)];
}

describe('sandbox CRS conversion: EPSG:3857 against the closed-form Mercator', () => {
  const crs = createCrsConverter();

  it('lon 127.0, lat 37.5', () => {
    const [x, y] = crs.fromWgs84('EPSG:3857', [127.0, 37.5]);
    const [ex, ey] = mercator(127.0, 37.5);
    expect(ex).toBeCloseTo(14137575.33, 2);
    expect(ey).toBeCloseTo(4509031.39, 2);
    expect(x).toBeCloseTo(ex!, 3);
    expect(y).toBeCloseTo(ey!, 3);
  });

  it.each([
    [126.9783882, 37.5666103],
    [129.13599, 35.16902],
    [0, 0],
    [-73.9857, 40.7484],
  ])('%f, %f both ways', (lon, lat) => {
    const [ex, ey] = mercator(lon, lat);
    const [x, y] = crs.fromWgs84('EPSG:3857', [lon, lat]);
    expect(x).toBeCloseTo(ex!, 3);
    expect(y).toBeCloseTo(ey!, 3);
    const [lon2, lat2] = crs.toWgs84('EPSG:3857', [ex!, ey!]);
    expect(lon2).toBeCloseTo(lon, 9);
    expect(lat2).toBeCloseTo(lat, 9);
  });
});

describe('sandbox CRS conversion: SVC:2048 (UTM-K with the spec parameters)', () => {
  const crs = createCrsConverter();

  it('maps the latitude of origin on the central meridian to the false origin exactly', () => {
    const [x, y] = crs.fromWgs84('SVC:2048', [127.5, 38]);
    expect(x).toBeCloseTo(2_000_000, 6);
    expect(y).toBeCloseTo(1_000_000, 6);
    const [lon, lat] = crs.toWgs84('SVC:2048', [2_000_000, 1_000_000]);
    expect(lon).toBeCloseTo(127.5, 10);
    expect(lat).toBeCloseTo(38, 10);
  });

  it.each([33.2, 35, 36.5, 37.5, 39, 43])(
    'on the central meridian at %f°N: x = FE, y = FN + k0·(M(φ) − M(φ0))',
    (lat) => {
      const [x, y] = crs.fromWgs84('SVC:2048', [127.5, lat]);
      expect(x).toBeCloseTo(UTMK.fe, 6);
      expect(y).toBeCloseTo(UTMK.fn + UTMK.k0 * (meridianArc(lat) - meridianArc(UTMK.lat0)), 3);
    },
  );

  it.each([
    ['Seoul City Hall', 126.97843, 37.56668],
    ['BEXCO, Busan', 129.13599, 35.16902],
    ['Sejong', 127.25911, 36.50383],
    ['Jeju', 126.5312, 33.4996],
    ['Dokdo', 131.8697, 37.2404],
  ])('%s agrees with the Krüger series to the millimetre', (_name, lon, lat) => {
    const [x, y] = crs.fromWgs84('SVC:2048', [lon, lat]);
    const [ex, ey] = kruger(lon, lat);
    expect(Math.abs(x - ex)).toBeLessThan(0.001);
    expect(Math.abs(y - ey)).toBeLessThan(0.001);
  });

  it('round-trips WGS84 -> SVC:2048 -> WGS84', () => {
    for (let lon = 124.5; lon <= 131; lon += 0.75) {
      for (let lat = 33; lat <= 38.6; lat += 0.7) {
        const [lon2, lat2] = crs.toWgs84('SVC:2048', crs.fromWgs84('SVC:2048', [lon, lat]));
        expect(lon2).toBeCloseTo(lon, 9);
        expect(lat2).toBeCloseTo(lat, 9);
      }
    }
  });

  it('differs from EPSG:5179 (the published UTM-K) only by the swapped false origin', () => {
    // Documents the discrepancy: EPSG:5179 has x_0=1000000, y_0=2000000; the spec's table swaps them.
    const epsg5179 = SVC_2048_PROJ.replace('+x_0=2000000 +y_0=1000000', '+x_0=1000000 +y_0=2000000');
    expect(epsg5179).not.toBe(SVC_2048_PROJ);
    const [x, y] = crs.fromWgs84('SVC:2048', [126.97843, 37.56668]);
    const [x5179, y5179] = proj4('EPSG:4326', epsg5179, [126.97843, 37.56668]);
    expect(x - x5179!).toBeCloseTo(1_000_000, 6);
    expect(y - y5179!).toBeCloseTo(-1_000_000, 6);
  });
});

describe("proj4's transverse Mercator against a published example", () => {
  it('EPSG Guidance Note 7-2 (British National Grid): 50°30′N 0°30′E -> E 577274.99, N 69740.50', () => {
    const osgb =
      '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy +units=m +no_defs';
    const [x, y] = proj4('+proj=longlat +ellps=airy +no_defs', osgb, [0.5, 50.5]);
    expect(Math.abs(x! - 577274.99)).toBeLessThan(0.02);
    expect(Math.abs(y! - 69740.5)).toBeLessThan(0.02);
  });
});

describe('sandbox E5: sourcecrs and targetcrs', () => {
  const ctx = { now: () => 0 };
  async function gc(query: string) {
    const req: SandboxRequest = {
      method: 'GET',
      rawUri: `/gc?${query}`,
      params: {},
      query: new URLSearchParams(query),
      headers: {},
      body: undefined,
    };
    const res = await mapsRoutes()[0]!.handle(req, ctx);
    return res.json as {
      status: { code: number };
      results: { region: Record<string, { coords: { center: { crs: string; x: number; y: number } } }> }[];
    };
  }

  it('reads sourcecrs EPSG:3857 and SVC:2048 input (converted independently here)', async () => {
    const [mx, my] = mercator(126.97843, 37.56668);
    const fromMercator = await gc(`coords=${mx},${my}&sourcecrs=EPSG:3857&output=json&orders=legalcode`);
    expect(fromMercator.status.code).toBe(0);
    expect(fromMercator.results[0]!.region.area3).toMatchObject({ name: '태평로1가' });
    const [ux, uy] = kruger(129.13599, 35.16902);
    const fromUtmk = await gc(`coords=${ux},${uy}&sourcecrs=svc:2048&output=json&orders=legalcode`);
    expect(fromUtmk.status.code).toBe(0);
    expect(fromUtmk.results[0]!.region.area3).toMatchObject({ name: '우동' });
  });

  it('writes every center in targetcrs', async () => {
    const mercatorOut = await gc('coords=126.97843,37.56668&targetcrs=EPSG:3857&output=json&orders=legalcode');
    const seoul = mercatorOut.results[0]!.region.area1!.coords.center;
    const [ex, ey] = mercator(126.9783882, 37.5666103);
    expect(seoul.crs).toBe('EPSG:3857');
    expect(seoul.x).toBeCloseTo(ex!, 1);
    expect(seoul.y).toBeCloseTo(ey!, 1);
    expect(mercatorOut.results[0]!.region.area0!.coords.center).toEqual({ crs: '', x: 0, y: 0 });

    const utmkOut = await gc('coords=126.97843,37.56668&targetcrs=SVC:2048&output=json&orders=legalcode');
    const seoulK = utmkOut.results[0]!.region.area1!.coords.center;
    const [kx, ky] = kruger(126.9783882, 37.5666103);
    expect(seoulK.crs).toBe('SVC:2048');
    expect(seoulK.x).toBeCloseTo(kx, 1);
    expect(seoulK.y).toBeCloseTo(ky, 1);
  });

  it('parses the codes in any case', () => {
    expect(parseCrs('epsg:4326')).toBe('EPSG:4326');
    expect(parseCrs('Epsg:3857')).toBe('EPSG:3857');
    expect(parseCrs('svc:2048')).toBe('SVC:2048');
    expect(parseCrs('EPSG:5179')).toBeUndefined();
  });
});
