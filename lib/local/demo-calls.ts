import { randomUUID } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { CallState } from '../../functions/domain/calls.ts';
import { romeYear } from '../../functions/domain/period.ts';

/** A one-page application form, as a municipality would attach to a call. */
async function formPdf(title: string, lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setLanguage('it-IT');
  const page = pdf.addPage([595, 842]);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText('Comune - Servizi sociali', { x: 56, y: 780, size: 12, font: regular, color: rgb(0, 0.4, 0.8) });
  page.drawText(title, { x: 56, y: 750, size: 18, font: bold });
  let y = 710;
  for (const line of lines) {
    page.drawText(line, { x: 56, y, size: 12, font: regular });
    y -= 28;
  }
  return pdf.save();
}

const demoCalls = [
  {
    service: 'SAD',
    name: 'Assistenza domiciliare anziani',
    state: CallState.OPEN,
    codAccertamento: 'ACC-SAD-01',
    codCapitolo: 'CAP-12040',
    nomeMyPay: 'ASSISTENZA_DOMICILIARE',
    form: 'Domanda di assistenza domiciliare',
  },
  {
    service: 'CENTRI_ESTIVI',
    name: 'Centri estivi per minori',
    state: CallState.OPEN,
    codAccertamento: 'ACC-CE-03',
    codCapitolo: 'CAP-12110',
    nomeMyPay: 'CENTRI_ESTIVI',
    form: 'Domanda di iscrizione ai centri estivi',
  },
  {
    service: 'TAXI_SOCIALE',
    name: 'Trasporto sociale taxi',
    state: CallState.CREATE,
    codAccertamento: 'ACC-TAXI-02',
    codCapitolo: 'CAP-12075',
    nomeMyPay: 'TAXI_SOCIALE',
    form: null,
  },
];

/** Three calls: two OPEN with the bands and a PDF form (the board is not empty), one still being prepared. */
export async function seedDemoCalls(): Promise<void> {
  const { listBands } = await import('../../functions/bands/repository.ts');
  const { listServices } = await import('../../functions/services/repository.ts');
  const { putCall } = await import('../../functions/calls/repository.ts');
  const { documentsBucket } = await import('../../functions/adapters/files.ts');
  const { s3 } = await (await import('../../functions/adapters/s3-client.ts')).s3Client();
  const bands = (await listBands({ limit: 100 })).items;
  const services = (await listServices({ limit: 100 })).items;
  const year = romeYear(new Date());
  for (const [index, demo] of demoCalls.entries()) {
    const service = services.find((s) => s.code === demo.service);
    if (!service) continue;
    const id = randomUUID();
    const files = [];
    if (demo.form) {
      const bytes = await formPdf(demo.form, [
        'Cognome e nome: ______________________',
        'Codice fiscale: ______________________',
        'Indirizzo: ______________________',
        'Data e firma: ______________________',
      ]);
      const storageFileId = randomUUID();
      const key = `calls/${id}/${storageFileId}`;
      await s3.send(
        new PutObjectCommand({ Bucket: documentsBucket, Key: key, Body: bytes, ContentType: 'application/pdf' }),
      );
      files.push({ storageFileId, name: `${demo.form}.pdf`, contentType: 'application/pdf', size: bytes.length, key });
    }
    const now = new Date(Date.now() - (demoCalls.length - index) * 60_000).toISOString();
    await putCall(
      {
        id,
        name: `${demo.name} ${year}`,
        year,
        state: demo.state,
        serviceId: service.id,
        serviceName: service.name,
        serviceDescription: service.description,
        nomeMyPay: demo.nomeMyPay,
        codAccertamento: demo.codAccertamento,
        codCapitolo: demo.codCapitolo,
        bandsId: bands.map((b) => b.id),
        files,
        dataInsert: now,
        updatedAt: now,
        version: 1,
      },
      null,
    );
  }
}
