import { describe, expect, it } from 'vitest';
import { flowEmailMessage } from '../../../functions/domain/notices.ts';
import { counted } from '../../../functions/domain/messages.ts';
import {
  importDoneText,
  importProgressText,
} from '../../../web/src/features/enrolments/components/import-progress.tsx';

/** Issue 23: a count is said in the singular for one ('1 posizione'), in the plural otherwise ('0 posizioni'). */
describe('counts as a person reads them', () => {
  it('says one thing in the singular, none or many in the plural', () => {
    expect([0, 1, 2].map((n) => counted(n, ['posizione', 'posizioni']))).toEqual([
      '0 posizioni',
      '1 posizione',
      '2 posizioni',
    ]);
    expect(
      counted(
        12_500,
        ['riga', 'righe'],
        new Intl.NumberFormat('it-IT', { useGrouping: 'always' } as Intl.NumberFormatOptions).format,
      ),
    ).toBe('12.500 righe');
  });

  it('says the import’s result and progress in the right number', () => {
    expect(importDoneText({ add: 1, update: 1, remove: 0, rejected: 1 })).toBe(
      'Importazione completata: 1 iscrizione aggiunta, 1 aggiornata, 0 rimosse, 1 riga scartata.',
    );
    expect(importDoneText({ add: 2, update: 0, remove: 1, rejected: 3 })).toBe(
      'Importazione completata: 2 iscrizioni aggiunte, 0 aggiornate, 1 rimossa, 3 righe scartate.',
    );
    expect(importProgressText(1, 2)).toBe('Importazione in corso: 1 riga applicata su 2');
    expect(importProgressText(0, 2)).toBe('Importazione in corso: 0 righe applicate su 2');
  });

  it('says the flow e-mails sent so far in the right number', () => {
    expect(flowEmailMessage({ done: false, sent: 1 })).toBe('Invio delle e-mail in corso: 1 inviata finora.');
    expect(flowEmailMessage({ done: false, sent: 0 })).toBe('Invio delle e-mail in corso: 0 inviate finora.');
  });
});
