import { describe, expect, it } from 'vitest';
import {
  csvFileProblem,
  formatFee,
  formatIsee,
  hoursHeader,
  hoursQuestion,
  iseeYearHint,
  paramsWithView,
  parseHoursInput,
  parseIseeAbove,
  parseRankingInput,
  showingText,
  sortDirection,
  toggleSort,
  viewFromParams,
  weeklyHoursLabel,
} from '../../../web/src/features/enrolments/utils/enrolment-format.ts';
import { returnCallId } from '../../../web/src/features/users/components/new-user-page.tsx';

// Intl's it-IT currency uses a no-break space before '€'.
const euro = (text: string) => text.replace(/\u00a0/g, ' ');

describe('the enrolled-users table reads as the spec says (part 2 §2.11)', () => {
  it('ISEE: value in euro and year, not loaded, or the 1900 error', () => {
    expect(euro(formatIsee({ valueCents: 1_234_550, year: 2025, state: 'VALIDATED' }))).toBe('12.345,50 € (2025)');
    expect(formatIsee(null)).toBe('ISEE non caricato');
    expect(formatIsee({ valueCents: 100, year: 1900, state: 'VALIDATED' })).toBe('Errore ISEE');
    expect(iseeYearHint(null)).toBe('Nessun ISEE dell’anno del bando');
    expect(iseeYearHint({ valueCents: 100, year: 2025, state: 'VALIDATED' })).toBe(
      'Anno dell’ultimo ISEE diverso dall’anno del bando',
    );
  });

  it('cost: the fee in euro, or why there is none', () => {
    expect(euro(formatFee({ kind: 'DUE', amountCents: 7714 }))).toBe('77,14 €');
    expect(euro(formatFee({ kind: 'DUE', amountCents: 0 }))).toBe('0,00 €');
    expect(formatFee({ kind: 'EXEMPT', amountCents: 0 })).toBe('Esente');
    expect(formatFee({ kind: 'NO_ISEE', amountCents: 0 })).toBe('ISEE scaduto o mancante');
    // The newest ISEE is waiting for an operator: no fee yet, but not a missing ISEE either.
    expect(formatFee({ kind: 'NO_ISEE', amountCents: 0 }, { valueCents: 1_523_050, year: 2026, state: 'LOADED' })).toBe(
      'ISEE da validare',
    );
    expect(
      formatFee({ kind: 'NO_ISEE', amountCents: 0 }, { valueCents: 1_523_050, year: 2026, state: 'REFUSED' }),
    ).toBe('ISEE scaduto o mancante');
    // A validated ISEE of last year does not bill this month: expired.
    expect(
      formatFee({ kind: 'NO_ISEE', amountCents: 0 }, { valueCents: 1_523_050, year: 2025, state: 'VALIDATED' }),
    ).toBe('ISEE scaduto o mancante');
    expect(formatFee({ kind: 'NO_BAND', amountCents: 0 })).toBe('Fascia ISEE non trovata');
    expect(formatFee(null)).toBe('—');
  });

  it('hours read rides for taxi services, whatever the case', () => {
    expect(hoursHeader('Taxi sociale')).toBe('Corse');
    expect(hoursHeader('Servizio TAXI disabili')).toBe('Corse');
    expect(hoursHeader('Assistenza domiciliare')).toBe('Ore');
    expect(hoursQuestion('Taxi sociale')).toBe('Corse');
    expect(hoursQuestion('Assistenza domiciliare')).toBe('Ore settimanali');
    expect(weeklyHoursLabel('Taxi sociale')).toBe('Corse settimanali');
    expect(showingText(10, 57)).toBe('Mostro 10 su 57');
  });
});

describe('the modals’ inputs (part 2 §5)', () => {
  it('hours: required, decimal with a comma or a dot, at most two decimals', () => {
    expect(parseHoursInput('')).toEqual({ error: 'Il campo non può essere vuoto!' });
    expect(parseHoursInput('   ')).toEqual({ error: 'Il campo non può essere vuoto!' });
    expect(parseHoursInput('12,5')).toEqual({ value: 12.5 });
    expect(parseHoursInput('12.25')).toEqual({ value: 12.25 });
    expect(parseHoursInput('168')).toEqual({ value: 168 });
    for (const bad of ['abc', '-3', '0', '0,00', '168,01', '200', '1,234', '1e3', '12,5,1'])
      expect(parseHoursInput(bad)).toHaveProperty('error');
  });

  it('ranking score: required integer', () => {
    expect(parseRankingInput('')).toEqual({ error: 'Il campo non può essere vuoto!' });
    expect(parseRankingInput('42')).toEqual({ value: 42 });
    expect(parseRankingInput(' 7 ')).toEqual({ value: 7 });
    for (const bad of ['4,5', '4.5', 'dieci', '1e2'])
      expect(parseRankingInput(bad)).toEqual({ error: 'Il punteggio deve essere un numero intero.' });
  });

  it('ISEE filter typed the Italian way', () => {
    expect(parseIseeAbove('')).toBeNull();
    expect(parseIseeAbove('12.000,50')).toBe(12000.5);
    expect(parseIseeAbove('3000')).toBe(3000);
    expect(parseIseeAbove('10000.50')).toBe(10000.5);
    expect(parseIseeAbove('12.000')).toBe(12000);
    expect(parseIseeAbove('12000,5 €')).toBe(12000.5);
    expect(parseIseeAbove('1.2.3')).toBeNaN();
    expect(parseIseeAbove('tremila')).toBeNaN();
  });

  it('CSV file: none, not a CSV, or a CSV as Windows reports it', () => {
    expect(csvFileProblem(null)).toBe('Nessun file caricato');
    expect(csvFileProblem({ name: 'iscritti.csv', type: 'text/csv' })).toBeNull();
    expect(csvFileProblem({ name: 'iscritti.csv', type: 'application/vnd.ms-excel' })).toBeNull();
    expect(csvFileProblem({ name: 'iscritti.csv', type: '' })).toBeNull();
    expect(
      csvFileProblem({
        name: 'iscritti.xlsx',
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      }),
    ).toBe('Carica un file con un formato supportato');
    expect(csvFileProblem({ name: 'iscritti.pdf', type: 'application/pdf' })).toBe(
      'Carica un file con un formato supportato',
    );
    expect(csvFileProblem({ name: 'foto.png', type: '' })).toBe('Carica un file con un formato supportato');
    // The limit is the file's size, said beside the chosen file's, never the encoded request's.
    expect(csvFileProblem({ name: 'iscritti.csv', type: 'text/csv', size: 2 * 1024 * 1024 })).toBeNull();
    expect(csvFileProblem({ name: 'iscritti.csv', type: 'text/csv', size: 2 * 1024 * 1024 + 1 })).toBe(
      'Il file è troppo grande: la dimensione massima è 2 MB (il file scelto è di 2,01 MB).',
    );
    expect(csvFileProblem({ name: 'iscritti.csv', type: 'text/csv', size: 3_500_000 })).toBe(
      'Il file è troppo grande: la dimensione massima è 2 MB (il file scelto è di 3,34 MB).',
    );
  });
});

describe('filters, order and page size live in the address', () => {
  it('round-trips through the query string and keeps the page’s own parameters', () => {
    const view = {
      filters: {
        fiscalCode: 'rssmra85c52h501n ',
        firstName: 'Maria',
        lastName: '',
        iseeAbove: '5.000',
        confirmed: true,
      },
      sort: '-isee' as const,
      limit: 25 as const,
    };
    const params = paramsWithView(new URLSearchParams('id=abc&fiscalCode=OLD'), view);
    expect(params.get('id')).toBe('abc');
    expect(params.toString()).toBe(
      'id=abc&fiscalCode=RSSMRA85C52H501N&firstName=Maria&iseeAbove=5.000&confirmed=true&sort=-isee&limit=25',
    );
    expect(viewFromParams(params)).toEqual({ ...view, filters: { ...view.filters, fiscalCode: 'RSSMRA85C52H501N' } });
  });

  it('defaults: ranking order, 10 rows; unknown values fall back to them', () => {
    expect(viewFromParams(new URLSearchParams('id=x'))).toMatchObject({ sort: 'ranking', limit: 10 });
    expect(viewFromParams(new URLSearchParams('sort=name&limit=1000'))).toMatchObject({ sort: 'ranking', limit: 10 });
    expect(
      paramsWithView(new URLSearchParams('id=x&sort=-ranking'), viewFromParams(new URLSearchParams())).toString(),
    ).toBe('id=x');
  });

  it('the ranking header toggles its order, the ISEE header too, and each says its direction', () => {
    expect(toggleSort('ranking', 'ranking')).toBe('-ranking');
    expect(toggleSort('-ranking', 'ranking')).toBe('ranking');
    expect(toggleSort('ranking', 'isee')).toBe('isee');
    expect(toggleSort('isee', 'isee')).toBe('-isee');
    expect(sortDirection('-isee', 'isee')).toBe('descending');
    expect(sortDirection('-isee', 'ranking')).toBe('none');
    expect(sortDirection('ranking', 'ranking')).toBe('ascending');
  });
});

describe('the new-user form’s way back to the call', () => {
  it('accepts a call id only, never an address', () => {
    expect(returnCallId('01JCALL_abc-9')).toBe('01JCALL_abc-9');
    expect(returnCallId(null)).toBeNull();
    expect(returnCallId('https://evil.example/')).toBeNull();
    expect(returnCallId('//evil.example')).toBeNull();
    expect(returnCallId('a'.repeat(65))).toBeNull();
  });
});
