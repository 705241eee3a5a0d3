import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { PaymentMessageError } from './payment-message.js';

// A payment message as a small element tree, read with saxes (the XML parser @vigil/lists already
// uses). saxes resolves no external entity and expands no entity it was not given: a DOCTYPE is
// refused outright here (ISO 20022 messages never carry one), so XXE and entity-expansion bombs
// ("billion laughs") cannot start. Depth and element count are capped so that a hostile message
// costs a bounded parse; its length is capped before it gets here.

export type XmlNode = {
  /** Local name, without a namespace prefix. */
  name: string;
  /** XPath-like location: `/Document/FIToFICstmrCdtTrf/CdtTrfTxInf[2]/Cdtr`. */
  path: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
};

export const XML_MAX_DEPTH = 32;
export const XML_MAX_ELEMENTS = 20_000;

const localName = (qualified: string): string => qualified.slice(qualified.indexOf(':') + 1);

export function readXmlTree(xml: string): XmlNode {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const open: XmlNode[] = [];
  // Same-named siblings seen so far under each open element, for the path's [n].
  const seen: Array<Map<string, number>> = [new Map()];
  let root: XmlNode | undefined;
  let elements = 0;
  const refuse = (message: string): never => {
    throw new PaymentMessageError(message, `/message (line ${parser.line}, column ${parser.column})`);
  };
  parser.on('doctype', () => refuse('a DOCTYPE is not allowed in a payment message'));
  parser.on('opentag', (tag: SaxesTagPlain) => {
    if (++elements > XML_MAX_ELEMENTS) refuse(`more than ${XML_MAX_ELEMENTS} elements`);
    if (open.length >= XML_MAX_DEPTH) refuse(`elements nested deeper than ${XML_MAX_DEPTH}`);
    const name = localName(tag.name);
    const parent = open[open.length - 1];
    const counts = seen[seen.length - 1]!;
    const n = (counts.get(name) ?? 0) + 1;
    counts.set(name, n);
    const node: XmlNode = {
      name,
      path: `${parent?.path ?? ''}/${name}[${n}]`,
      attrs: { ...tag.attributes },
      children: [],
      text: '',
    };
    if (parent) parent.children.push(node);
    else root = node;
    open.push(node);
    seen.push(new Map());
  });
  parser.on('closetag', () => {
    open.pop();
    seen.pop();
  });
  parser.on('text', (text) => {
    const current = open[open.length - 1];
    if (current) current.text += text;
  });
  parser.on('cdata', (text) => {
    const current = open[open.length - 1];
    if (current) current.text += text;
  });
  try {
    parser.write(xml).close();
  } catch (error) {
    if (error instanceof PaymentMessageError) throw error;
    // saxes's message already says where ("1:23: undefined entity"): the message is not XML.
    throw new PaymentMessageError(`not well-formed XML: ${(error as Error).message}`, '/message');
  }
  if (!root) throw new PaymentMessageError('no root element', '/message');
  return tidyPaths(root);
}

/**
 * Drops `[1]` where an element has no same-named sibling, so paths read as the message
 * definitions write them (`/Document/FIToFICstmrCdtTrf/CdtTrfTxInf[2]/Cdtr/Nm`).
 */
function tidyPaths(root: XmlNode): XmlNode {
  const visit = (node: XmlNode, parentPath: string, siblings: readonly XmlNode[]) => {
    const twins = siblings.filter((s) => s.name === node.name).length;
    const index = node.path.slice(node.path.lastIndexOf('['));
    node.path = `${parentPath}/${node.name}${twins > 1 ? index : ''}`;
    for (const child of node.children) visit(child, node.path, node.children);
  };
  visit(root, '', [root]);
  return root;
}

export const child = (node: XmlNode | undefined, name: string): XmlNode | undefined =>
  node?.children.find((c) => c.name === name);

export const childrenNamed = (node: XmlNode | undefined, name: string): XmlNode[] =>
  node?.children.filter((c) => c.name === name) ?? [];

/** The element at a relative path (`Id/OrgId/AnyBIC`), if present. */
export function at(node: XmlNode | undefined, path: string): XmlNode | undefined {
  let current = node;
  for (const name of path.split('/')) current = child(current, name);
  return current;
}

/** Trimmed text with runs of white space as one space; empty is undefined. */
export function textOf(node: XmlNode | undefined): string | undefined {
  const text = node?.text.replace(/\s+/g, ' ').trim();
  return text ? text : undefined;
}
