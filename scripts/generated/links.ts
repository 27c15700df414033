// The section links of generated blocks, made relative to the file they are written into. The table's texts
// (src/config/env-variables.ts) link a section by its anchor alone, `[Shutdown](#shutdown)`, wherever the block goes;
// the page that holds each section is named once, here: `docs/reliability.md#shutdown` in the README, and
// `reliability.md#shutdown` in docs/http.md.
import { posix } from 'node:path';

/** The page (and anchor) of every section a generated block links to. */
const SECTIONS: Record<string, string> = {
  shutdown: 'docs/reliability.md#shutdown',
  limits: 'docs/http.md#limits',
  deploying: 'docs/deploying.md',
  'streamable-http-transport': 'docs/http.md#environment',
  'sessions-and---stateless': 'docs/http.md#sessions-and---stateless',
};

/** `markdown` with each `](#section)` pointing to the section's page as seen from `file`. */
export function linksFrom(file: string, markdown: string): string {
  return markdown.replace(/\]\(#([\w-]+)\)/g, (_link, anchor: string) => {
    const target = SECTIONS[anchor];
    if (target === undefined)
      throw new Error(`no page for the section #${anchor}: name it in scripts/generated/links.ts`);
    const [page, hash] = target.split('#') as [string, string | undefined];
    const path = page === file ? '' : posix.relative(posix.dirname(file), page);
    return `](${path}${hash === undefined ? '' : `#${hash}`})`;
  });
}
