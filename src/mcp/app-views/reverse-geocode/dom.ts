/** Elements made from text only: nothing the answer holds is ever parsed as markup. */

type Child = Node | string;

export function el(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svgEl(tag: string, attributes: Record<string, string | number> = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** One term and its description in a definition list. */
export function field(list: HTMLElement, term: string, description: Child): void {
  list.append(el('dt', {}, term), el('dd', {}, description));
}
