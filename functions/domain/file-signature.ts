/**
 * The type of a stored file, read from its first bytes (its signature), never from its name or the
 * type the browser declared. Only the types uploads accept are recognised (domain/files.ts); anything
 * else is undefined, and refused.
 */
const signatures = [
  { mime: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { mime: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }, // \x89PNG\r\n\x1a\n
  { mime: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] }, // start of image + first marker
] as const;

export type SignedType = (typeof signatures)[number]['mime'];

export function fileTypeOf(head: Uint8Array): SignedType | undefined {
  return signatures.find(({ bytes }) => bytes.every((byte, i) => head[i] === byte))?.mime;
}
