import { describe, expect, it } from 'vitest';

describe('the local ISEE reader', () => {
  it('leaves JSON, Array.prototype.push and Function.prototype.toString as they were once pdfjs-dist has loaded', async () => {
    const before = {
      stringify: JSON.stringify,
      parse: JSON.parse,
      push: Array.prototype.push,
      toString: Function.prototype.toString,
    };
    const { getDocument } = await import('../../functions/isee-extraction/pdfjs.ts');
    expect(typeof getDocument).toBe('function');
    expect({
      stringify: JSON.stringify,
      parse: JSON.parse,
      push: Array.prototype.push,
      toString: Function.prototype.toString,
    }).toEqual(before);
    // What pdfjs needs on Node 20 and the natives lack stays.
    expect(typeof (Promise as unknown as { withResolvers?: unknown }).withResolvers).toBe('function');
  });
});
