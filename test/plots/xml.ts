// Tiny XML well-formedness check for the preview SVGs (no DOMParser in Node): one root element,
// balanced tags, quoted attributes without raw '<', and only the five predefined entities or
// numeric character references in text and attribute values.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: XmlElement[];
}

const ENTITY = /&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/y;

function checkEntities(s: string, where: string): void {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '<') throw new Error(`raw '<' in ${where}`);
    if (s[i] === '&') {
      ENTITY.lastIndex = i;
      if (!ENTITY.test(s)) throw new Error(`bad entity in ${where}: ${s.slice(i, i + 12)}`);
    }
  }
}

function decode(s: string): string {
  return s.replace(
    /&(amp|lt|gt|quot|apos);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!,
  );
}

/** Parses and returns the root element; throws with a reason when the document is not well-formed. */
export function parseXml(doc: string): XmlElement {
  let s = doc.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const tag = /^<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*"[^"]*")*)\s*(\/?)>/;
  while (s.length) {
    const lt = s.indexOf('<');
    const text = lt < 0 ? s : s.slice(0, lt);
    if (text) {
      if (!stack.length) {
        if (text.trim()) throw new Error('text outside the root element');
      } else {
        checkEntities(text, `text of <${stack[stack.length - 1].name}>`);
        stack[stack.length - 1].text += decode(text);
      }
    }
    if (lt < 0) break;
    s = s.slice(lt);
    const m = tag.exec(s);
    if (!m) throw new Error(`malformed tag near: ${s.slice(0, 60)}`);
    const [all, close, name, attrText, selfClose] = m;
    if (close) {
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`</${name}> closes <${open?.name ?? 'nothing'}>`);
    } else {
      const attrs: Record<string, string> = {};
      for (const a of attrText.matchAll(/([A-Za-z_][\w:.-]*)\s*=\s*"([^"]*)"/g)) {
        if (a[1] in attrs) throw new Error(`duplicate attribute ${a[1]} on <${name}>`);
        checkEntities(a[2], `attribute ${a[1]} of <${name}>`);
        attrs[a[1]] = decode(a[2]);
      }
      const el: XmlElement = { name, attrs, text: '', children: [] };
      if (stack.length) stack[stack.length - 1].children.push(el);
      else if (root) throw new Error('more than one root element');
      else root = el;
      if (!selfClose) stack.push(el);
    }
    s = s.slice(all.length);
  }
  if (stack.length) throw new Error(`unclosed <${stack[stack.length - 1].name}>`);
  if (!root) throw new Error('no root element');
  return root;
}

export function walk(el: XmlElement, fn: (e: XmlElement) => void): void {
  fn(el);
  for (const c of el.children) walk(c, fn);
}

export function findAll(root: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  walk(root, (e) => {
    if (e.name === name) out.push(e);
  });
  return out;
}

export function allText(root: XmlElement): string[] {
  return findAll(root, 'text').map((t) => t.text);
}
