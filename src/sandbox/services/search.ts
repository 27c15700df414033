import { listTokenizerLanguages, updateSchema } from '../../catalogue/search.js';
import { TOKENIZER_LANGUAGES } from '../../catalogue/tokenizer-languages.js';
import { badRequest, fail, notFound } from '../errors.js';
import {
  searchFixtures,
  type BuildInfo,
  type IndexProcessor,
  type SchemaDocument,
  type SearchIndex,
  type Section,
} from '../fixtures/search.js';
import { routeOf } from '../route-of.js';
import type { Route } from '../types.js';
import { optionalString, requireArray, requireObject, requireString, type JsonObject } from '../validate.js';

/**
 * E13 and E14. The search service reports errors by HTTP status only; the sandbox still sends the gateway
 * error body with them so clients have a reason to show. A schema is stored in its normalised form (the fields
 * the spec names), so unknown extra members are dropped and an index counts as unchanged when its named
 * fields are equal, whatever their key order.
 */
export function searchRoutes(): Route[] {
  const domains = searchFixtures();
  return [
    routeOf(updateSchema, (req) => {
      const name = req.params.name!;
      const current = domains.get(name) ?? fail(notFound(`domain ${name} does not exist`));
      const input = requireObject(req.body, 'request body');
      const next = parseDocument(requireObject(input.document, 'document'));
      for (const existing of current.indexes) {
        const kept = next.indexes.find((i) => i.name === existing.name);
        if (!kept) fail(badRequest(`index ${existing.name} was removed: indexes can only be added`));
        if (canonical(kept) !== canonical(existing))
          fail(badRequest(`index ${existing.name} was changed: indexes can only be added`));
      }
      domains.set(name, next);
      return { status: 200, json: { result: `The schema of domain ${name} was updated successfully.` } };
    }),
    routeOf(listTokenizerLanguages, () => ({ status: 200, json: TOKENIZER_LANGUAGES })),
  ];
}

/** Checks the schema the way the validate-schema operation would, and keeps only the fields the spec names. */
function parseDocument(doc: JsonObject): SchemaDocument {
  const primarySectionName = requireString(doc, 'primarySectionName', {
    minLength: 1,
    label: 'document.primarySectionName',
  });
  const sections = requireArray(doc, 'sections', 'document.sections').map((s, i) =>
    parseSection(requireObject(s, `document.sections[${i}]`), `document.sections[${i}]`),
  );
  const sectionNames = unique(
    sections.map((s) => s.name),
    'section',
  );
  if (!sectionNames.has(primarySectionName))
    fail(badRequest(`document.primarySectionName ${primarySectionName} names no section`));
  const indexes = requireArray(doc, 'indexes', 'document.indexes').map((x, i) =>
    parseIndex(requireObject(x, `document.indexes[${i}]`), `document.indexes[${i}]`, sectionNames),
  );
  unique(
    indexes.map((x) => x.name),
    'index',
  );
  return { primarySectionName, sections, indexes };
}

function parseSection(s: JsonObject, at: string): Section {
  const name = requireString(s, 'name', { minLength: 1, label: `${at}.name` });
  const docProperties = requireArray(s, 'docProperties', `${at}.docProperties`).map((p, i) => {
    const where = `${at}.docProperties[${i}]`;
    const prop = requireObject(p, where);
    return {
      type: requireString(prop, 'type', { minLength: 1, label: `${where}.type` }),
      name: requireString(prop, 'name', { minLength: 1, label: `${where}.name` }),
    };
  });
  return { name, docProperties };
}

function parseIndex(x: JsonObject, at: string, sectionNames: Set<string>): SearchIndex {
  const name = requireString(x, 'name', { minLength: 1, label: `${at}.name` });
  const buildInfos = requireArray(x, 'buildInfos', `${at}.buildInfos`).map((b, i): BuildInfo => {
    const where = `${at}.buildInfos[${i}]`;
    const build = requireObject(b, where);
    const sections = requireArray(build, 'sections', `${where}.sections`).map((s) => {
      if (typeof s !== 'string' || !sectionNames.has(s))
        fail(badRequest(`${where}.sections: index ${name} builds from unknown section ${String(s)}`));
      return s;
    });
    const indexProcessors = requireArray(build, 'indexProcessors', `${where}.indexProcessors`).map(
      (p, j): IndexProcessor => {
        const pat = `${where}.indexProcessors[${j}]`;
        const proc = requireObject(p, pat);
        return {
          type: requireString(proc, 'type', { label: `${pat}.type` }),
          method: requireString(proc, 'method', { label: `${pat}.method` }),
          option: requireString(proc, 'option', { label: `${pat}.option` }),
        };
      },
    );
    return {
      name: requireString(build, 'name', { minLength: 1, label: `${where}.name` }),
      sections,
      sectionTermWeight: optionalString(build, 'sectionTermWeight', { label: `${where}.sectionTermWeight` }),
      indexProcessors,
    };
  });
  return {
    name,
    documentTermWeight: optionalString(x, 'documentTermWeight', { label: `${at}.documentTermWeight` }),
    buildInfos,
  };
}

function unique(names: string[], what: string): Set<string> {
  const set = new Set(names);
  if (set.size !== names.length) fail(badRequest(`${what} names must be unique`));
  return set;
}

/** JSON with object keys sorted and absent optionals dropped, so equal content compares equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
