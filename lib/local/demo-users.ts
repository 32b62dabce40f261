import { PutObjectCommand } from '@aws-sdk/client-s3';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { NewUserInput } from '../../functions/domain/user-input.ts';
import { iseeDocumentKey } from '../../functions/domain/isee-extraction.ts';
import { romeYear } from '../../functions/domain/period.ts';

/**
 * Demo users: Maria Rossi (the test identity) with a complete profile and a validated ISEE, and a few
 * citizens registered by the operators, two of them with an ISEE waiting for review (so the operator's
 * badges and /lista_isee show something), and Paolo Greco, approved on the first demo call with his debt
 * positions of last month and this one (so the payment screens show something). Giuseppe Verdi has no record: he signs in for the first time.
 */
export const demoUsers: (NewUserInput & {
  isee?: { value: number; state: 'LOADED' | 'VALIDATED'; protocol: string };
})[] = [
  {
    firstName: 'Maria',
    lastName: 'Rossi',
    fiscalCode: 'RSSMRA85C52H501N',
    birthDate: '1985-03-12',
    email: 'maria.rossi@example.it',
    emailPec: null,
    phoneNumber: '+393331234567',
    address: 'Via Roma',
    addressNumber: '12',
    cap: '00184',
    city: 'Roma',
    country: 'RM',
    nation: 'IT',
    municipioId: '1',
    isee: { value: 8450.32, state: 'VALIDATED', protocol: 'INPS-ISEE-2026-00123456A-00' },
  },
  {
    firstName: 'Luca',
    lastName: 'Ferrari',
    fiscalCode: 'FRRLCU75E15F205M',
    birthDate: '1975-05-15',
    email: 'luca.ferrari@example.it',
    emailPec: null,
    phoneNumber: '3471122334',
    address: 'Corso Buenos Aires',
    addressNumber: '45',
    cap: '20124',
    city: 'Milano',
    country: 'MI',
    nation: 'IT',
    municipioId: '2',
    isee: { value: 15230.5, state: 'LOADED', protocol: 'INPS-ISEE-2026-00234567B-00' },
  },
  {
    firstName: 'Giulia',
    lastName: 'Colombo',
    fiscalCode: 'CLMGLI92T48L219U',
    birthDate: '1992-12-08',
    email: 'giulia.colombo@example.it',
    emailPec: null,
    phoneNumber: null,
    address: 'Via Garibaldi',
    addressNumber: '3',
    cap: '10122',
    city: 'Torino',
    country: 'TO',
    nation: 'IT',
    municipioId: '3',
    isee: { value: 4980, state: 'LOADED', protocol: 'INPS-ISEE-2026-00345678C-00' },
  },
  {
    firstName: 'Marco',
    lastName: 'Ricci',
    fiscalCode: 'RCCMRC60A01H501V',
    birthDate: '1960-01-01',
    email: null,
    emailPec: null,
    phoneNumber: '0612345678',
    address: 'Via Appia Nuova',
    addressNumber: '101',
    cap: '00183',
    city: 'Roma',
    country: 'RM',
    nation: 'IT',
    municipioId: '4',
  },
  {
    firstName: 'Paolo',
    lastName: 'Greco',
    fiscalCode: 'GRCPLA70A01F205T',
    birthDate: '1970-01-01',
    email: 'paolo.greco@example.it',
    emailPec: null,
    phoneNumber: '3289988776',
    address: 'Via Manzoni',
    addressNumber: '21',
    cap: '20121',
    city: 'Milano',
    country: 'MI',
    nation: 'IT',
    municipioId: '2',
    isee: { value: 9800, state: 'VALIDATED', protocol: 'INPS-ISEE-2026-00456789D-00' },
  },
  {
    firstName: 'Anna',
    lastName: 'Bruno',
    fiscalCode: 'BRNNNA88M41F839L',
    birthDate: '1988-08-01',
    email: 'anna.bruno@example.it',
    emailPec: 'anna.bruno@pec.example.it',
    phoneNumber: '+393405566778',
    address: 'Via Toledo',
    addressNumber: '7',
    cap: '80134',
    city: 'Napoli',
    country: 'NA',
    nation: 'IT',
    municipioId: '5',
  },
];

/** A one-page attestation in the INPS layout, enough for the demo and for the document reader. */
export async function demoAttestation(input: {
  fullName: string;
  fiscalCode: string;
  protocol: string;
  value: number;
  year: number;
}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const amount = new Intl.NumberFormat('it-IT', {
    minimumFractionDigits: 2,
    useGrouping: 'always',
  } as Intl.NumberFormatOptions).format(input.value);
  const lines: [string, number, boolean?][] = [
    ['ISTITUTO NAZIONALE PREVIDENZA SOCIALE', 800, true],
    [`Protocollo DSU: ${input.protocol}`, 780],
    ['ATTESTAZIONE I.S.E.E. ORDINARIO', 740, true],
    [`Dichiarante: ${input.fullName.toUpperCase()}  Codice fiscale: ${input.fiscalCode}`, 710],
    [`Data di presentazione della DSU: 15/01/${input.year}`, 690],
    [`Data di rilascio: 20/01/${input.year}`, 670],
    [`Valida fino al: 31/12/${input.year}`, 650],
    ['Nucleo familiare', 620, true],
    [`${input.fullName.toUpperCase()}  ${input.fiscalCode}  Dichiarante`, 600],
    [`ISEE ordinario: ${amount} euro`, 560, true],
    [`ISEE ristretto: ${amount} euro`, 540],
    ['Non sono presenti omissioni/difformità.', 510],
  ];
  for (const [text, y, isBold] of lines) page.drawText(text, { x: 50, y, size: 11, font: isBold ? bold : font });
  return pdf.save();
}

/** Writes the demo users (and their ISEE with a document) through the same repositories the Lambdas use. */
export async function seedDemoUsers(): Promise<void> {
  const users = await import('../../functions/users/repository.ts');
  const isee = await import('../../functions/isee/repository.ts');
  const { isee: iseeUseCases } = await import('../../functions/entry/isee.ts');
  const { documentsBucket } = await import('../../functions/adapters/files.ts');
  const { s3 } = await (await import('../../functions/adapters/s3-client.ts')).s3Client();
  const year = romeYear(new Date());
  for (const { isee: demoIsee, ...input } of demoUsers) {
    const user = (await users.createUser(input))!;
    if (!demoIsee) continue;
    const id = isee.newIseeId();
    const bytes = await demoAttestation({
      fullName: `${user.firstName} ${user.lastName}`,
      fiscalCode: user.fiscalCode,
      protocol: demoIsee.protocol,
      value: demoIsee.value,
      year,
    });
    await s3.send(
      new PutObjectCommand({
        Bucket: documentsBucket,
        Key: iseeDocumentKey(id),
        Body: bytes,
        ContentType: 'application/pdf',
      }),
    );
    await iseeUseCases.recordIsee({
      id,
      userId: user.id,
      user: { firstName: user.firstName, lastName: user.lastName, fiscalCode: user.fiscalCode, email: user.email },
      value: demoIsee.value,
      year,
      date: new Date().toISOString(),
      protocollo: demoIsee.state === 'VALIDATED' ? demoIsee.protocol : null,
      scadenza: demoIsee.state === 'VALIDATED' ? `${year}-12-31` : null,
      state: demoIsee.state,
      file: { name: 'attestazione-isee.pdf', contentType: 'application/pdf', size: bytes.length },
      uploadedBy: 'CITIZEN',
      uploadedBySub: 'demo',
    });
  }
}
