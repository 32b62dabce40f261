/** pdfjs-dist's minified legacy build is its legacy build minified: the same exports, whose types it ships. */
declare module 'pdfjs-dist/legacy/build/pdf.min.mjs' {
  export * from 'pdfjs-dist/legacy/build/pdf.mjs';
}
