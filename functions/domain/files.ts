import * as z from 'zod/mini';
import { fill } from './messages.ts';

/** The file types the spec accepts for every upload (part 1 §9, part 2 §9). */
export const ACCEPTED_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'application/pdf'] as const;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export const fileMessages = {
  unsupported: 'Carica un file con un formato supportato',
  missing: 'Non è stato caricato nessun documento',
  tooLarge: fill('Il file supera la dimensione massima di {mb} MB.', { mb: MAX_FILE_BYTES / 1024 / 1024 }),
  empty: 'Il file è vuoto.',
  notFound: 'Il file caricato non è stato trovato: caricalo di nuovo.',
  tooMany: 'Non è possibile caricare più di cinque allegati.',
  typeMismatch: 'Il contenuto del file non corrisponde al formato dichiarato: caricalo di nuovo.',
  sizeMismatch: 'La dimensione del file caricato non corrisponde a quella dichiarata: caricalo di nuovo.',
} as const;

/** What an upload is for: decides the final place of the file and who may read it. */
export const uploadPurposes = ['call-form', 'subscription-file', 'isee'] as const;
export type UploadPurpose = (typeof uploadPurposes)[number];

/** The browser asks for a presigned upload; the declared type and size are checked again on the stored bytes. */
export const uploadRequestSchema = z.object({
  purpose: z.enum(uploadPurposes),
  fileName: z.string().check(z.trim(), z.minLength(1, fileMessages.missing), z.maxLength(200)),
  contentType: z
    .string()
    .check(z.refine((type) => (ACCEPTED_TYPES as readonly string[]).includes(type), fileMessages.unsupported)),
  size: z.number().check(z.int(), z.gte(1, fileMessages.empty), z.lte(MAX_FILE_BYTES, fileMessages.tooLarge)),
});
export type UploadRequest = z.output<typeof uploadRequestSchema>;

export const uploadTicketSchema = z.object({
  uploadKey: z.string(),
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  expiresInSeconds: z.number(),
});
export type UploadTicket = z.output<typeof uploadTicketSchema>;

/** A stored file as the API shows it: a short-lived link, never the bytes. */
export const storedFileSchema = z.object({
  storageFileId: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.number(),
});
export type StoredFile = z.output<typeof storedFileSchema>;

/** A file reference a form sends after uploading: the key the upload ticket gave, and the file's name. */
export const uploadedFileSchema = z.object({
  uploadKey: z.string().check(z.minLength(1), z.maxLength(300)),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
});

export const isAcceptedType = (type: string | undefined): boolean =>
  !!type && (ACCEPTED_TYPES as readonly string[]).includes(type);

/** A file kept in the documents bucket, as the table records it (the key never leaves the API). */
export interface KeptFile extends StoredFile {
  key: string;
}
