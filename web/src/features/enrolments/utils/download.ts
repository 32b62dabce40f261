import { saveBlob } from '@/lib/save-blob';

/** Saves a text file the API sent (CSV) under its name, as a download. */
export function downloadText(fileName: string, content: string, type = 'text/csv;charset=utf-8') {
  saveBlob(fileName, new Blob([content], { type }));
}

/** A file's bytes as base64, for a JSON body. */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
