import type { BandInput } from '../../functions/domain/bands.ts';
import type { ServiceInput } from '../../functions/domain/services.ts';

/** What a first `npm start` shows: a municipality's usual ISEE bands and social services. */
export const demoBands: BandInput[] = [
  { name: 'Fascia 1', min: 0, max: 6000, percent: 10, fixedCost: 20 },
  { name: 'Fascia 2', min: 6000.01, max: 12000, percent: 30, fixedCost: 20 },
  { name: 'Fascia 3', min: 12000.01, max: 20000, percent: 50, fixedCost: 20 },
  { name: 'Fascia 4', min: 20000.01, max: 30000, percent: 75, fixedCost: 20 },
  { name: 'Fascia 5', min: 30000.01, max: 999999.99, percent: null, fixedCost: 20 },
];

export const demoServices: ServiceInput[] = [
  {
    code: 'SAD',
    name: 'Assistenza domiciliare anziani',
    description:
      'Aiuto a casa per le persone anziane non autosufficienti: igiene personale, pasti, piccole commissioni.',
  },
  {
    code: 'TAXI_SOCIALE',
    name: 'Trasporto sociale taxi',
    description:
      'Corse in taxi a tariffa agevolata verso ospedali, ambulatori e centri diurni per chi non può usare i mezzi pubblici.',
  },
  {
    code: 'CENTRI_ESTIVI',
    name: 'Centri estivi per minori',
    description:
      'Attività educative e ricreative nei mesi di giugno, luglio e agosto per bambini e ragazzi dai 6 ai 14 anni.',
  },
  {
    code: 'PASTI_DOMICILIO',
    name: 'Pasti a domicilio',
    description: 'Consegna a casa del pranzo dal lunedì al sabato per persone sole o con ridotta autonomia.',
  },
  {
    code: 'AES',
    name: 'Assistenza educativa scolastica',
    description: 'Educatori a supporto degli alunni con disabilità durante l’orario scolastico.',
  },
];

/** Writes the demo data through the same repositories the Lambdas use. */
export async function seedDemoData(): Promise<void> {
  const bands = await import('../../functions/bands/repository.ts');
  const services = await import('../../functions/services/repository.ts');
  for (const band of demoBands) await bands.createBand(band);
  for (const service of demoServices) await services.createService(service);
  await (await import('./demo-calls.ts')).seedDemoCalls();
  await (await import('./demo-users.ts')).seedDemoUsers();
  await (await import('./demo-configuration.ts')).seedDemoConfiguration();
  await (await import('./demo-enrolments.ts')).seedDemoEnrolments();
}
