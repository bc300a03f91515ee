/**
 * Test-only fix for happy-dom's `Node.prototype.nodeName`, which returns '' for every
 * node (capricorn86/happy-dom#2182). DOMPurify ≥ 3.4.8 reads names through that getter,
 * so under happy-dom it drops the outermost element of everything it cleans.
 *
 * DOMPurify's authors do not support happy-dom at all, so no security claim rests on a
 * happy-dom run: the sanitiser's payload tests run in Chromium (test/e2e/mail-html-pipeline.test.ts).
 * This shim only lets component tests (composer, conversation) use the real pipeline.
 */
const NODE_NAMES: Readonly<Record<number, string>> = { 3: '#text', 4: '#cdata-section', 8: '#comment', 9: '#document', 11: '#document-fragment' };

export function fixHappyDomNodeName(): void {
  const proto = globalThis.Node?.prototype as (Node & { __ternFixed?: boolean }) | undefined;
  if (!proto || proto.__ternFixed) return;
  Object.defineProperty(proto, 'nodeName', {
    configurable: true,
    get(this: Node) {
      if (this.nodeType === 1) return (this as Element).tagName;
      if (this.nodeType === 10) return (this as DocumentType).name;
      if (this.nodeType === 7) return (this as ProcessingInstruction).target;
      return NODE_NAMES[this.nodeType] ?? '';
    },
  });
  Object.defineProperty(proto, '__ternFixed', { value: true });
}

fixHappyDomNodeName();
