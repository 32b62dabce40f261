import { describe, expect, it } from 'vitest';
import { deleteIseeQuestion } from '@/features/isee/utils/isee-form';

describe("the 'Rimozione ISEE' question", () => {
  it('names the ISEE by year, value in euro and protocol', () => {
    expect(
      deleteIseeQuestion({ year: 2026, value: 8450.32, protocollo: 'INPS-ISEE-2026-00123456A-00' }).replace(/\s/g, ' '),
    ).toBe("Confermi di voler rimuovere l'ISEE 2026 di 8.450,32 € (protocollo INPS-ISEE-2026-00123456A-00)?");
  });

  it('leaves the protocol out when the ISEE has none', () => {
    expect(deleteIseeQuestion({ year: 2025, value: 0, protocollo: null }).replace(/\s/g, ' ')).toBe(
      "Confermi di voler rimuovere l'ISEE 2025 di 0,00 €?",
    );
  });
});
