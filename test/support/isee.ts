import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { as } from './api.ts';
import { uploadWithTicket } from './files.ts';
import { randomFiscalCodeFrom } from './fiscal-codes.ts';
import { romeYear } from '../../functions/domain/period.ts';

type Client = Awaited<ReturnType<typeof as>>;

/** A one-page INPS-like attestation with the given fiscal code, protocol and ISEE ordinario (and, if given, ISE and scale). */
export async function attestationPdf(input: {
  fullName: string;
  fiscalCode: string;
  protocol: string;
  value: string;
  year?: number;
  ise?: string;
  scale?: string;
}) {
  const year = input.year ?? romeYear(new Date());
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const lines = [
    'ISTITUTO NAZIONALE PREVIDENZA SOCIALE',
    `Protocollo DSU: ${input.protocol}`,
    'ATTESTAZIONE I.S.E.E. ORDINARIO',
    `Dichiarante: ${input.fullName.toUpperCase()}   Codice fiscale: ${input.fiscalCode}`,
    `Data di presentazione della DSU: 15/01/${year}`,
    `Data di rilascio: 20/01/${year}`,
    `Valida fino al: 31/12/${year}`,
    'Nucleo familiare',
    `${input.fullName.toUpperCase()}   ${input.fiscalCode}   Dichiarante`,
    ...(input.ise ? [`Indicatore della situazione economica (ISE): ${input.ise} euro`] : []),
    ...(input.scale ? [`Valore della scala di equivalenza: ${input.scale}`] : []),
    `ISEE ordinario: ${input.value} euro`,
    `ISEE ristretto: ${input.value} euro`,
    'Non sono presenti omissioni/difformità.',
  ];
  lines.forEach((text, i) => page.drawText(text, { x: 50, y: 800 - i * 22, size: 11, font }));
  return pdf.save();
}

/** Uploads bytes for an ISEE as the browser does and returns the reference the API wants. */
export async function stageIseeFile(
  client: Client,
  bytes: Uint8Array,
  fileName = 'isee.pdf',
  contentType = 'application/pdf',
  declaredSize = bytes.length,
) {
  const ticket = await client.post('/api/uploads', {
    purpose: 'isee',
    fileName,
    contentType,
    size: Math.min(declaredSize, 10 * 1024 * 1024),
  });
  if (ticket.status !== 201) throw new Error(`ticket refused: ${ticket.status} ${JSON.stringify(ticket.json)}`);
  await uploadWithTicket(ticket.json, bytes, fileName);
  return { uploadKey: ticket.json.uploadKey as string, name: fileName };
}

/** A random fiscal code with a right check character, for records that need a fresh one. */
export const randomFiscalCode = (): string => randomFiscalCodeFrom();

/** The real path to a validated ISEE: the citizen uploads an attestation, the operator confirms it. */
export async function giveValidatedIsee(citizen: Client, operator: Client, value = 8000) {
  const me = (await citizen.get('/api/me')).json;
  const pdf = await attestationPdf({
    fullName: me.fullName,
    fiscalCode: me.fiscalCode,
    protocol: 'INPS-ISEE-2026-00000001A-00',
    value: value.toLocaleString('it-IT'),
  });
  const uploaded = await citizen.post('/api/isee', { document: await stageIseeFile(citizen, pdf), value });
  if (uploaded.status !== 201) throw new Error(`ISEE not uploaded: ${JSON.stringify(uploaded.json)}`);
  const decided = await operator.put(`/api/isee/${uploaded.json.id}/decision`, { state: 1, value });
  if (decided.status !== 200) throw new Error(`ISEE not validated: ${JSON.stringify(decided.json)}`);
}

/**
 * A photographed attestation cropped above its ISE and scale: protocol, dates, the declarant, and the ISEE
 * after a dotted leader (a PNG, as a flatbed scan would give it). Read right, it still cannot be checked.
 */
export async function croppedAttestationPhoto(input: {
  fiscalCode: string;
  protocol: string;
  value: string;
  year?: number;
}): Promise<Buffer> {
  const { toImage } = await import('../fixtures/isee/generate.ts');
  const year = input.year ?? romeYear(new Date());
  const lines = [
    `Protocollo DSU n. ${input.protocol}`,
    'ATTESTAZIONE ISEE',
    `Dichiarazione Sostitutiva Unica (DSU) presentata il 15/01/${year}`,
    `Dichiarante: ROSSI MARIA    Codice fiscale: ${input.fiscalCode}`,
    `La presente attestazione è valida fino al 31/12/${year}`,
    `ISEE ORDINARIO ....................................... ${input.value}`,
  ];
  const ops = lines.map((text, i) => ({ kind: 'text' as const, page: 0, x: 50, y: 80 + i * 32, text, size: 14 }));
  return toImage({ truth: {} as never, pages: 1, ops }, 0, 'scan', 3, 'png');
}
