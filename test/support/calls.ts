import { as } from './api.ts';
import { samplePdf, uploadWithTicket } from './files.ts';

type Client = Awaited<ReturnType<typeof as>>;

/** Uploads bytes as the browser does (ticket, then presigned POST) and returns what a form sends. */
export async function upload(
  client: Client,
  purpose: 'call-form' | 'subscription-file',
  bytes: Uint8Array,
  name: string,
  contentType = 'application/pdf',
) {
  const ticket = await client.post('/api/uploads', {
    purpose,
    fileName: name,
    contentType,
    size: Math.min(bytes.length, 10 * 1024 * 1024),
  });
  if (ticket.status !== 201) throw new Error(`ticket refused: ${JSON.stringify(ticket.json)}`);
  await uploadWithTicket(ticket.json, bytes, name);
  return { uploadKey: ticket.json.uploadKey as string, name };
}

export const callFields = (serviceId: string, name = 'Bando di prova') => ({
  serviceId,
  name,
  codAccertamento: 'ACC-2025-01',
  codCapitolo: 'CAP-1203',
  nomeMyPay: 'SERVIZI_SOCIALI',
});

/** A service, a band and an OPEN call with one form, made by the operator through the API (of `year`, else the current one). */
export async function openCall(
  operator: Client,
  name = `Bando aperto ${Math.random().toString(36).slice(2, 8)}`,
  { year }: { year?: number } = {},
) {
  const service = (
    await operator.post('/api/services', {
      code: 'TEST',
      name: `Servizio ${name}`,
      description: 'Servizio per i test dei bandi.',
    })
  ).json;
  const band = (
    await operator.post('/api/bands', { name: 'Fascia test', min: 0, max: 10000, percent: 40, fixedCost: 18 })
  ).json;
  const form = await upload(operator, 'call-form', await samplePdf('Modulo di domanda'), 'modulo.pdf');
  const created = await operator.post('/api/calls', {
    ...callFields(service.id, name),
    bandsId: [band.id],
    files: [form],
  });
  if (created.status !== 201) throw new Error(`call not created: ${JSON.stringify(created.json)}`);
  const opened = await operator.put(`/api/calls/${created.json.id}`, {
    ...callFields(service.id, name),
    year: year ?? created.json.year,
    state: 1,
    bandsId: [band.id],
    files: [],
  });
  if (opened.status !== 200) throw new Error(`call not opened: ${JSON.stringify(opened.json)}`);
  return { call: opened.json, service, band };
}
