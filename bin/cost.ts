/**
 * `npm run cost`: the estimated monthly AWS bill of one council's portal, by service (lib/cost-model.ts).
 *
 *   npm run cost                                   a town of 10,000, a city of 100,000 and one of 1,000,000 inhabitants
 *   npm run cost -- --inhabitants 45000            a council of that size (the README's assumptions)
 *   npm run cost -- --citizens 2000 --subscriptions 600 --isee-uploads 150 --page-views 80000
 *
 * USD a month at the eu-south-1 prices of lib/cost-model.ts (their date is printed), always-free allowances
 * deducted, no Savings Plan, VAT excluded. The alarms, metrics, keys, secrets and functions are counted in the
 * app as synthesized now (lib/cost-inventory.ts), so the bill follows the code; a staging copy is priced too.
 */
import { parseArgs } from 'node:util';
import { portalInventory } from '../lib/cost-inventory.ts';
import {
  councilOf,
  milanPrices,
  monthlyBill,
  monthlyUsage,
  services,
  stagingBill,
  usageAssumptions,
  type CouncilSize,
} from '../lib/cost-model.ts';

const { values } = parseArgs({
  options: {
    inhabitants: { type: 'string' },
    citizens: { type: 'string' },
    subscriptions: { type: 'string' },
    'isee-uploads': { type: 'string' },
    'page-views': { type: 'string' },
  },
});

function count(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || !Number.isInteger(n)) {
    console.error(`--${name} vuole un numero intero non negativo (ricevuto «${value}»).`);
    process.exit(2);
  }
  return n;
}

const inhabitants = count('inhabitants', values.inhabitants);
const given = {
  citizens: count('citizens', values.citizens),
  activeSubscriptions: count('subscriptions', values.subscriptions),
  iseeUploadsPerMonth: count('isee-uploads', values['isee-uploads']),
  pageViewsPerMonth: count('page-views', values['page-views']),
};
const custom = Object.values(given).some((v) => v !== undefined);

const columns: { title: string; size: CouncilSize }[] = custom
  ? [
      {
        title: 'questo comune',
        size: {
          ...councilOf(inhabitants ?? 100_000),
          ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
        },
      },
    ]
  : (inhabitants !== undefined ? [inhabitants] : [10_000, 100_000, 1_000_000]).map((n) => ({
      title: `${n.toLocaleString('it-IT')} ab.`,
      size: councilOf(n),
    }));

const usd = (n: number) => `$ ${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const int = (n: number) => Math.round(n).toLocaleString('it-IT');
const inventory = portalInventory();
const bills = columns.map(({ size }) => ({
  usage: monthlyUsage(size, inventory),
  bill: monthlyBill(monthlyUsage(size, inventory), inventory),
}));
const staging = stagingBill(inventory);
const width = 18;
const row = (label: string, cells: string[]) =>
  console.log(`${label.padEnd(32)}${cells.map((c) => c.padStart(width)).join('')}`);

console.log(`Costo mensile stimato su AWS (${milanPrices.region}, prezzi del ${milanPrices.date}, USD, IVA esclusa)\n`);
row(
  '',
  columns.map((c) => c.title),
);
row(
  'Cittadini registrati',
  columns.map((c) => int(c.size.citizens)),
);
row(
  'Iscrizioni attive (posizioni/mese)',
  columns.map((c) => int(c.size.activeSubscriptions)),
);
row(
  'ISEE caricati al mese',
  columns.map((c) => int(c.size.iseeUploadsPerMonth)),
);
row(
  'Pagine viste al mese',
  columns.map((c) => int(c.size.pageViewsPerMonth)),
);
row(
  'Chiamate API al mese',
  bills.map((b) => int(b.usage.apiCalls)),
);
console.log('');
for (const service of services)
  row(
    service,
    bills.map((b) => usd(b.bill.byService[service])),
  );
console.log('-'.repeat(32 + width * columns.length));
row(
  'Totale al mese',
  bills.map((b) => usd(b.bill.total)),
);
row(
  'Totale all’anno',
  bills.map((b) => usd(b.bill.total * 12)),
);
console.log(
  `\nCopia di staging nello stesso account (come un comune di ${usageAssumptions.stagingInhabitants.toLocaleString('it-IT')} ab., senza quote gratuite): ${usd(staging.total)} al mese in più.`,
);
console.log(
  `Conteggi dall’app sintetizzata: ${inventory.functions} funzioni, ${inventory.stateMachines} macchine a stati, ${inventory.alarmMetrics} metriche negli allarmi, ` +
    `${inventory.customMetrics} metriche personalizzate, ${inventory.kmsKeys} chiavi KMS, ${inventory.secrets} segreti, ${inventory.dashboards} dashboard, ${inventory.webAcls} web ACL WAF con ${inventory.webAclRules} regole.`,
);
console.log(
  '\nIpotesi e prezzi: lib/cost-model.ts (le voci ASSUMPTION vanno verificate nel calcolatore AWS); README, «What it costs».',
);
