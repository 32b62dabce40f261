import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { fileMessages } from '../../functions/domain/files.ts';
import { as } from '../support/api.ts';
import { renamedExecutable, samplePdf, tinyPng, uploadWithTicket } from '../support/files.ts';
import { stageIseeFile } from '../support/isee.ts';

/** The claim step runs inside the Lambdas; here it is called directly against the local S3. */
async function filesAdapter() {
  process.env.DOCUMENTS_BUCKET = 'portale-documents';
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  Object.assign(process.env, {
    AWS_REGION: 'eu-south-1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  });
  return import('../../functions/adapters/files.ts');
}

let citizen: Awaited<ReturnType<typeof as>>;
const subOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub as string;
const ticketFor = async (fileName: string, contentType: string, size: number) =>
  (await citizen.post('/api/uploads', { purpose: 'subscription-file', fileName, contentType, size })).json;

beforeAll(async () => {
  citizen = await as('citizen');
});

describe('uploads straight to storage, checked on the stored bytes', () => {
  it('stores a PDF uploaded with a presigned POST and gives a short-lived link to it', async () => {
    const files = await filesAdapter();
    const pdf = await samplePdf();
    const ticket = await ticketFor('domanda.pdf', 'application/pdf', pdf.length);
    await uploadWithTicket(ticket, pdf, 'domanda.pdf');
    const claimed = await files.claimUpload(subOf(citizen.token!), ticket.uploadKey, 'test/domanda.pdf');
    expect(claimed).toEqual({ key: 'test/domanda.pdf', contentType: 'application/pdf', size: pdf.length });
    const link = await files.downloadUrl(claimed.key, 'domanda.pdf');
    expect(link).toMatch(/X-Amz-Expires=300/);
    expect(new Uint8Array(await (await fetch(link)).arrayBuffer())).toEqual(pdf);
  });

  it('reads the type from the content: a renamed executable is refused and deleted', async () => {
    const files = await filesAdapter();
    const exe = renamedExecutable();
    const ticket = await ticketFor('certificato.pdf', 'application/pdf', exe.length);
    await uploadWithTicket(ticket, exe, 'certificato.pdf');
    await expect(files.claimUpload(subOf(citizen.token!), ticket.uploadKey, 'test/x.pdf')).rejects.toThrow(
      'Carica un file con un formato supportato',
    );
    // The staged object is gone: a second claim finds nothing.
    await expect(files.claimUpload(subOf(citizen.token!), ticket.uploadKey, 'test/x.pdf')).rejects.toThrow(
      'Il file caricato non è stato trovato',
    );
  });

  it('accepts a photo whose name says JPEG but whose content is a PNG: same kind, served as PNG', async () => {
    const files = await filesAdapter();
    const png = tinyPng();
    const ticket = await ticketFor('foto.jpg', 'image/jpeg', png.length);
    await uploadWithTicket(ticket, png, 'foto.jpg');
    expect((await files.claimUpload(subOf(citizen.token!), ticket.uploadKey, 'test/foto')).contentType).toBe(
      'image/png',
    );
  });

  it('refuses a stored type other than the declared one (declared PDF, stored PNG), and keeps nothing', async () => {
    const files = await filesAdapter();
    const png = tinyPng();
    const ticket = await ticketFor('domanda.pdf', 'application/pdf', png.length);
    await uploadWithTicket(ticket, png, 'domanda.pdf');
    await expect(files.claimUpload(subOf(citizen.token!), ticket.uploadKey, 'test/foto')).rejects.toThrow(
      fileMessages.typeMismatch,
    );
    await expect(files.claimUpload(subOf(citizen.token!), ticket.uploadKey, 'test/foto')).rejects.toThrow(
      fileMessages.notFound,
    );
  });

  it('refuses a stored size other than the declared one, and keeps nothing', async () => {
    const files = await filesAdapter();
    const pdf = await samplePdf();
    const ticket = await ticketFor('domanda.pdf', 'application/pdf', 1000);
    expect(pdf.length).not.toBe(1000);
    await uploadWithTicket(ticket, pdf, 'domanda.pdf');
    await expect(files.claimUpload(subOf(citizen.token!), ticket.uploadKey, 'test/grande.pdf')).rejects.toThrow(
      fileMessages.sizeMismatch,
    );
    await expect(files.claimUpload(subOf(citizen.token!), ticket.uploadKey, 'test/grande.pdf')).rejects.toThrow(
      fileMessages.notFound,
    );
  });

  it('answers 400 with the Italian message through the API, and records nothing', async () => {
    const count = async () => (await citizen.get('/api/me/isee?limit=100')).json.items.length;
    const before = await count();
    const pdf = await samplePdf();
    const document = await stageIseeFile(citizen, pdf, 'isee.pdf', 'application/pdf', 1000);
    const response = await citizen.post('/api/isee', { document, value: 100 });
    expect(response.status).toBe(400);
    expect(response.json.detail).toBe(fileMessages.sizeMismatch);
    expect(await count()).toBe(before);
  });

  it('serves a stored file with its verified type: a PDF/HTML polyglot is a PDF, never a page', async () => {
    const files = await filesAdapter();
    const polyglot = new TextEncoder().encode('%PDF-1.4\n<html><body><script>alert(1)</script></body></html>\n%%EOF\n');
    const ticket = await ticketFor('domanda.pdf', 'application/pdf', polyglot.length);
    await uploadWithTicket(ticket, polyglot, 'domanda.pdf');
    const claimed = await files.claimUpload(subOf(citizen.token!), ticket.uploadKey, 'test/poliglotta.pdf');
    const response = await fetch(await files.downloadUrl(claimed.key, 'domanda.html', claimed.contentType));
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toMatch(/^inline; filename="domanda.html"/);
    // Without a verified type the link is an attachment of no particular type.
    const unknown = await fetch(await files.downloadUrl(claimed.key, 'domanda.html'));
    expect(unknown.headers.get('content-type')).toBe('application/octet-stream');
    expect(unknown.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('does not let one person claim another person’s upload', async () => {
    const files = await filesAdapter();
    const pdf = await samplePdf();
    const ticket = await ticketFor('domanda.pdf', 'application/pdf', pdf.length);
    await uploadWithTicket(ticket, pdf, 'domanda.pdf');
    await expect(files.claimUpload('qualcun-altro', ticket.uploadKey, 'test/rubato.pdf')).rejects.toThrow(
      'Il file caricato non è stato trovato',
    );
  });

  it('refuses up front a declared type or size the portal does not accept', async () => {
    const exe = await citizen.post('/api/uploads', {
      purpose: 'subscription-file',
      fileName: 'setup.exe',
      contentType: 'application/x-msdownload',
      size: 100,
    });
    expect(exe.status).toBe(400);
    expect(exe.json.detail).toBe('Carica un file con un formato supportato');
    const huge = await citizen.post('/api/uploads', {
      purpose: 'subscription-file',
      fileName: 'grande.pdf',
      contentType: 'application/pdf',
      size: 50 * 1024 * 1024,
    });
    expect(huge.status).toBe(400);
    expect(huge.json.detail).toBe('Il file supera la dimensione massima di 10 MB.');
  });
});
