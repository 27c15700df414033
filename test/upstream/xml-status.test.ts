import { describe, expect, it } from 'vitest';
import { xmlStatus } from '../../src/upstream/xml-status.js';
import { growthFactor, LINEAR } from '../helpers/cost.js';

const answer = (code: string, name = 'ok') =>
  `<status><code>${code}</code><name>${name}</name><message>done</message></status>`;

describe('xmlStatus', () => {
  it('reads the status the maps answer carries', () => {
    expect(xmlStatus(`<?xml version="1.0"?>\n<response>${answer('0')}<results/></response>`)).toEqual({
      code: '0',
      name: 'ok',
      message: 'done',
    });
  });

  it('does not take a status quoted in a comment, a CDATA section or a processing instruction', () => {
    const decoys = `<!-- ${answer('0')} -->` + `<note><![CDATA[${answer('0')}]]></note>` + `<?debug ${answer('0')}?>`;
    expect(xmlStatus(`<response>${decoys}${answer('3', 'no results')}</response>`)).toMatchObject({
      code: '3',
      name: 'no results',
    });
    expect(xmlStatus(`<response><!-- ${answer('0')} --></response>`)).toBeUndefined();
  });

  it('reads a status whose members are attributes', () => {
    expect(xmlStatus(`<response><status code="3" name="no results" message="a &amp; b"/></response>`)).toEqual({
      code: '3',
      name: 'no results',
      message: 'a & b',
    });
    expect(xmlStatus(`<r><status code='100'><message>bad</message></status></r>`)).toEqual({
      code: '100',
      message: 'bad',
    });
  });

  it('reads a status under a namespace, prefixed or default', () => {
    const prefixed = `<m:response xmlns:m="urn:maps"><m:status><m:code>3</m:code><m:name>none</m:name></m:status></m:response>`;
    expect(xmlStatus(prefixed)).toEqual({ code: '3', name: 'none' });
    expect(
      xmlStatus(`<response xmlns="urn:maps"><status xmlns="urn:x">${answer('0').slice(8)}</response>`),
    ).toMatchObject({
      code: '0',
    });
  });

  it('reads members as text: entities decoded, CDATA kept, comments and child tags left out', () => {
    const xml = `<status><code> <!-- c -->3</code><message><![CDATA[a < b]]> &amp; <b>c</b></message></status>`;
    expect(xmlStatus(xml)).toEqual({ code: '3', message: 'a < b & c' });
  });

  it('takes the first status that has a code, and only its direct children', () => {
    const xml = `<r><status><detail><code>9</code></detail></status><status a=">"><code>3</code></status></r>`;
    expect(xmlStatus(xml)).toEqual({ code: '3' });
    expect(xmlStatus(`<r><statusCode>0</statusCode></r>`)).toBeUndefined();
    expect(xmlStatus('not xml at all')).toBeUndefined();
    expect(xmlStatus('<status><code>0')).toBeUndefined();
  });

  it('costs time linear in the text, for long and deeply nested answers', async () => {
    const nested = (n: number) => `${'<status><x>'.repeat(n)}${'</x></status>'.repeat(n)}`;
    expect(await growthFactor(nested, xmlStatus, 10_000)).toBeLessThan(LINEAR);
    const comments = (n: number) => `<r>${'<!-- <status><code>0</code></status> -->'.repeat(n)}${answer('3')}</r>`;
    expect(await growthFactor(comments, xmlStatus, 10_000)).toBeLessThan(LINEAR);
  });
});
