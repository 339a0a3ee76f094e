import { parse, type DefaultTreeAdapterMap } from 'parse5';

// The HTML report read the way a browser reads it (parse5 is the WHATWG parsing algorithm), for structural tests.

export type Node = DefaultTreeAdapterMap['node'];
export type Element = DefaultTreeAdapterMap['element'];

export interface ParsedHtml { root: Node; errors: string[] }

export function parseHtml(html: string): ParsedHtml {
  const errors: string[] = [];
  const root = parse(html, { onParseError: (e) => errors.push(`${e.code} at ${e.startLine}:${e.startCol}`) });
  return { root, errors };
}

export function elements(node: Node): Element[] {
  const out: Element[] = [];
  const visit = (n: Node): void => {
    if ('tagName' in n) out.push(n);
    const children = 'content' in n && n.nodeName === 'template' ? n.content.childNodes : 'childNodes' in n ? n.childNodes : [];
    for (const c of children) visit(c);
  };
  visit(node);
  return out;
}

export const attr = (el: Element, name: string): string | undefined => el.attrs.find((a) => a.name === name)?.value;

export function byId(root: Node, id: string): Element {
  const el = elements(root).find((e) => attr(e, 'id') === id);
  if (!el) throw new Error(`no element #${id}`);
  return el;
}

/** The text a reader sees in an element (the parser has decoded every entity). */
export function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  return 'childNodes' in node ? node.childNodes.map(textOf).join('') : '';
}

/** Table body rows as lists of cell texts. */
export function rowsOf(table: Element): string[][] {
  return elements(table).filter((e) => e.tagName === 'tr').slice(1)
    .map((tr) => elements(tr).filter((c) => c.tagName === 'td').map((td) => textOf(td)));
}
