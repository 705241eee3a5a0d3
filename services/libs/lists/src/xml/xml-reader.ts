import { SaxesParser, type SaxesTagPlain } from 'saxes';

// Streaming XML → small element trees, one per record element. saxes does the XML (entities,
// CDATA, well-formedness); this keeps only the subtrees the caller asks for, so memory stays
// proportional to one record, not to the file.

export type XmlElement = {
  /** Local name, without any namespace prefix. */
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Text directly inside this element (not its children's), untrimmed. */
  text: string;
};

/** Decides whether an element opened at `depth` (the root is 0) is a record to yield whole. */
export type RecordSelector = (name: string, depth: number, parent: string | undefined) => boolean;

function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon < 0 ? qualified : qualified.slice(colon + 1);
}

/** Yield each selected element, complete with its subtree, in document order. */
export async function* readXmlRecords(
  chunks: AsyncIterable<string>,
  isRecord: RecordSelector,
): AsyncGenerator<XmlElement> {
  const parser = new SaxesParser({ xmlns: false, position: false });
  const ready: XmlElement[] = [];
  // Names of the open elements outside any record, to give the selector its context.
  const path: string[] = [];
  // Open elements inside the current record; [0] is the record itself.
  const open: XmlElement[] = [];
  let failure: Error | undefined;

  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = localName(tag.name);
    if (open.length > 0) {
      const element: XmlElement = { name, attrs: { ...tag.attributes }, children: [], text: '' };
      open[open.length - 1]?.children.push(element);
      if (!tag.isSelfClosing) open.push(element);
      return;
    }
    if (isRecord(name, path.length, path[path.length - 1])) {
      const element: XmlElement = { name, attrs: { ...tag.attributes }, children: [], text: '' };
      if (tag.isSelfClosing) ready.push(element);
      else open.push(element);
      return;
    }
    if (!tag.isSelfClosing) path.push(name);
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    if (tag.isSelfClosing) return;
    if (open.length > 0) {
      const element = open.pop();
      if (open.length === 0 && element) ready.push(element);
      return;
    }
    path.pop();
  });
  const onText = (text: string): void => {
    const current = open[open.length - 1];
    if (current) current.text += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('error', (error: Error) => {
    failure ??= error;
  });

  for await (const chunk of chunks) {
    parser.write(chunk);
    if (failure) throw failure;
    if (ready.length > 0) yield* ready.splice(0, ready.length);
  }
  parser.close();
  if (failure) throw failure;
  yield* ready;
}

/** The first child element with this name. */
export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name);
}

/** All child elements with this name. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c) => c.name === name);
}

/** All descendant elements with this name, depth first. */
export function descendants(element: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of element.children) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

/** Trimmed text of the first child with this name, or '' when absent. */
export function childText(element: XmlElement, name: string): string {
  return child(element, name)?.text.trim() ?? '';
}

/** Trimmed text of an element and all its descendants. */
export function deepText(element: XmlElement): string {
  let text = element.text;
  for (const c of element.children) text += deepText(c);
  return text.trim();
}
