/**
 * Writes the citizen's manual, web/public/doc/Manuale.pdf (linked from the home page, the footer and
 * /supporto). Run: `npx tsx web/scripts/manual.ts`.
 */
import { writeFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

const sections: Array<[string, string[]]> = [
  [
    '1. Accedere al portale',
    [
      "Il portale dei servizi sociali si usa con la propria identità digitale: SPID (Sistema Pubblico di Identità Digitale) oppure la CIE (Carta d'Identità Elettronica).",
      'Premi "Accedi" in alto a destra, scegli SPID o CIE e segui le istruzioni del tuo gestore. Al primo accesso il portale crea la tua area personale con nome, cognome e codice fiscale ricevuti dall\'identità digitale.',
      'Per motivi di sicurezza la sessione dura al massimo 9 ore: dopo, il portale ti chiede di accedere di nuovo ("SESSIONE SCADUTA").',
    ],
  ],
  [
    '2. Completare il profilo',
    [
      'Dalla voce "Profilo" controlla i tuoi dati e premi "Modifica" per aggiornare indirizzo, e-mail e telefono. L\'indirizzo e-mail è obbligatorio: lo usiamo per gli avvisi di pagamento e le risposte del supporto.',
    ],
  ],
  [
    "3. Caricare l'attestazione ISEE",
    [
      'Molti servizi hanno un costo che dipende dall\'ISEE. Dalla voce "Caricamento ISEE" carica l\'attestazione (PDF, JPEG o PNG, al massimo 10 MB) e indica il valore ISEE riportato nel documento.',
      'L\'ufficio verifica l\'attestazione: finché è "DA VERIFICARE" non puoi ancora iscriverti ai bandi. Se viene rifiutata, caricane una nuova. Le attestazioni caricate sono elencate nel tuo profilo.',
    ],
  ],
  [
    '4. Trovare un bando',
    [
      'La "Bacheca" della home mostra gli ultimi bandi aperti. Nell\'elenco "Servizi" scegli un servizio e premi "Vedi i bandi" per vedere tutti i suoi bandi aperti.',
      'La pagina del bando mostra la descrizione del servizio, le fasce ISEE con il costo orario di ciascuna e i moduli del Comune da scaricare.',
    ],
  ],
  [
    '5. Presentare la richiesta con i documenti',
    [
      'Nella pagina del bando scarica e compila i moduli, poi allega fino a 5 documenti (PDF, JPEG o PNG, al massimo 10 MB ciascuno) e premi "Richiedi Servizio".',
      'Se la richiesta è accettata compare il messaggio "Richiesta inviata"; se non è possibile (per esempio hai già fatto richiesta per quel bando, oppure il bando è chiuso) compare "RICHIESTA RIFIUTATA" con il motivo.',
    ],
  ],
  [
    '6. Seguire le richieste',
    [
      'La voce "Iscrizioni" elenca le tue richieste con il loro stato: RICHIESTA INSERITA (in attesa di valutazione), RICHIESTA APPROVATA, ISCRIZIONE SOSPESA, ISCRIZIONE RIFIUTATA. Puoi filtrarle per stato.',
      'Quando la richiesta è approvata, nella pagina del bando trovi le ore settimanali assegnate e il costo mensile.',
    ],
  ],
  [
    '7. Pagamenti',
    [
      'Per i servizi a pagamento il Comune emette ogni mese un avviso pagoPA, calcolato sulla tua fascia ISEE e sulle ore assegnate. Con ISEE fino a 3.000 euro non è dovuto alcun pagamento.',
      "Gli avvisi sono visibili nella pagina del bando e arrivano anche per e-mail e sull'app IO: puoi pagarli online, in banca, in posta o nei punti abilitati pagoPA.",
    ],
  ],
  [
    '8. Assistenza',
    [
      "Dalla voce \"Supporto\" puoi scrivere all'ufficio: indica la tua e-mail, scegli l'argomento e descrivi il problema (al massimo 400 caratteri). Ti risponderemo all'indirizzo indicato.",
      "Puoi anche chiamare l'assistenza telefonica ai numeri e negli orari indicati in fondo a ogni pagina del portale.",
    ],
  ],
];

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 64;
const BLUE = rgb(0, 0.4, 0.8);

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

export async function buildManual(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle("Manuale d'uso del portale dei servizi sociali");
  pdf.setLanguage('it-IT');
  pdf.setAuthor('Comune - Settore Politiche Sociali');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const width = A4[0] - 2 * MARGIN;
  let page: PDFPage = pdf.addPage(A4);
  let y = A4[1] - MARGIN;
  const ensure = (needed: number) => {
    if (y - needed < MARGIN) {
      page = pdf.addPage(A4);
      y = A4[1] - MARGIN;
    }
  };

  page.drawText('Portale dei servizi sociali', { x: MARGIN, y, size: 12, font: bold, color: BLUE });
  y -= 34;
  page.drawText("Manuale d'uso per i cittadini", { x: MARGIN, y, size: 24, font: bold });
  y -= 28;
  for (const line of wrap(
    "Come accedere, caricare l'ISEE, chiedere un servizio e seguire le richieste e i pagamenti.",
    regular,
    12,
    width,
  )) {
    page.drawText(line, { x: MARGIN, y, size: 12, font: regular, color: rgb(0.27, 0.36, 0.44) });
    y -= 18;
  }
  y -= 12;

  for (const [title, paragraphs] of sections) {
    ensure(60);
    y -= 10;
    page.drawText(title, { x: MARGIN, y, size: 16, font: bold, color: BLUE });
    y -= 24;
    for (const paragraph of paragraphs) {
      const lines = wrap(paragraph, regular, 12, width);
      for (const line of lines) {
        ensure(18);
        page.drawText(line, { x: MARGIN, y, size: 12, font: regular });
        y -= 17;
      }
      y -= 8;
    }
  }
  const pages = pdf.getPages();
  pages.forEach((p, i) =>
    p.drawText(`Pagina ${i + 1} di ${pages.length}`, {
      x: A4[0] - MARGIN - 80,
      y: 32,
      size: 9,
      font: regular,
      color: rgb(0.4, 0.4, 0.4),
    }),
  );
  return pdf.save();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = new URL('../public/doc/Manuale.pdf', import.meta.url);
  await writeFile(target, await buildManual());
  console.log(`Scritto ${target.pathname}`);
}
