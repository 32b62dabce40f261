import { Badge, Button, CheckboxField, Flex, Heading, SelectField, Text, TextField } from '@aws-amplify/ui-react';
import {
  DEBT_PAGE_SIZES,
  DEBT_TOTALS_START_YEAR,
  debtListMessages,
  debtListQuerySchema,
  debtSorts,
  paymentListTexts,
  paymentsWorkbookName,
  type DebtSort,
  type DebtSummaryRow,
  type DebtTotalsResponse,
} from '@domain/debt-summaries';
import { counted, formatCount } from '@domain/messages';
import { formatEuroCents } from '@domain/money';
import { currentPeriod, RECONCILE_LABEL } from '@domain/payments';
import { romeDay } from '@domain/period';
import { fieldErrors } from '@domain/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { CursorPagination, useCursorList } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { useApiQuery } from '@/lib/queries';
import { paths } from '@/config/paths';
import { errorMessage, type Page } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { MissingIseeNotice } from './missing-isee-notice';
import { SyncPositionsButton } from './sync-positions-button';
import {
  getAllPayments,
  getPaymentList,
  getPaymentTotals,
  type PaymentFilters,
  type PaymentPageSize,
} from '../api/payment-list';
import { saveBlob } from '@/lib/save-blob';
import { formatDay } from '@/lib/dates';

/**
 * 'Record trovati' and the sum. A text filter counts at most DEBT_FILTER_COUNT_CAP rows: beyond that
 * both figures are lower bounds, and the line says so rather than show them as exact.
 */
export const recordsFound = (count: number, sum: number, capped: boolean) =>
  capped
    ? `Record trovati: più di ${formatCount(count)} — Totale: almeno ${formatEuroCents(sum)} (conteggio fermato a ${formatCount(count)} record: restringi la ricerca per i valori esatti)`
    : `Record trovati: ${formatCount(count)} — Totale: ${formatEuroCents(sum)}`;

const sortLabels: Record<DebtSort, string> = {
  importo: 'Importo crescente',
  '-importo': 'Importo decrescente',
  nome: 'Cognome e nome (A-Z)',
  '-nome': 'Cognome e nome (Z-A)',
};

interface View {
  filters: PaymentFilters;
  sort: DebtSort;
  limit: PaymentPageSize;
}

const thisYear = () => currentPeriod(new Date()).anno;

function viewFromParams(params: URLSearchParams): View {
  const sort = params.get('sort') as DebtSort | null;
  const limit = Number(params.get('limit'));
  const anno = Number(params.get('anno'));
  return {
    filters: {
      name: params.get('name') ?? '',
      chkNoSendMail: params.get('chkNoSendMail') === 'true',
      chkDaRiconciliare: params.get('chkDaRiconciliare') === 'true',
      anno: Number.isInteger(anno) && anno >= DEBT_TOTALS_START_YEAR && anno <= 2100 ? anno : thisYear(),
    },
    sort: sort && (debtSorts as readonly string[]).includes(sort) ? sort : 'nome',
    limit: (DEBT_PAGE_SIZES as readonly number[]).includes(limit) ? (limit as PaymentPageSize) : 10,
  };
}

function paramsWithView(params: URLSearchParams, view: View): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of ['name', 'chkNoSendMail', 'chkDaRiconciliare', 'anno', 'sort', 'limit']) next.delete(key);
  if (view.filters.name.trim()) next.set('name', view.filters.name.trim());
  if (view.filters.chkNoSendMail) next.set('chkNoSendMail', 'true');
  if (view.filters.chkDaRiconciliare) next.set('chkDaRiconciliare', 'true');
  if (view.filters.anno !== thisYear()) next.set('anno', String(view.filters.anno));
  if (view.sort !== 'nome') next.set('sort', view.sort);
  if (view.limit !== 10) next.set('limit', String(view.limit));
  return next;
}

/** Years offered: from the totals' start date (2025) to next year. */
const years = () =>
  Array.from({ length: thisYear() + 2 - DEBT_TOTALS_START_YEAR }, (_, i) => DEBT_TOTALS_START_YEAR + i);

function Statistics({ totals }: { totals: DebtTotalsResponse }) {
  const entries: Array<[string, string]> = [
    ['Dovuto', formatEuroCents(totals.dovuto)],
    ['Pagato', formatEuroCents(totals.pagato)],
    ['Da pagare', formatEuroCents(totals.daPagare)],
    ['Cittadini', formatCount(totals.cittadini)],
    ['Posizioni', formatCount(totals.posizioni)],
    ['Pagate', formatCount(totals.pagate)],
    ['Annullate', formatCount(totals.annullate)],
    [
      RECONCILE_LABEL,
      totals.daRiconciliare
        ? `${formatCount(totals.daRiconciliare)} (differenza ${formatEuroCents(totals.differenzaDaRiconciliare)})`
        : '0',
    ],
  ];
  return (
    <section aria-labelledby="payment-stats-title" className="payment-stats" data-testid="payment-stats">
      <Heading level={2} id="payment-stats-title" className="payment-stats__title">
        Statistiche {totals.anno} (dal {formatDay(totals.dal)})
      </Heading>
      <dl className="payment-stats__list">
        {entries.map(([label, value]) => (
          <div key={label} className="payment-stats__item">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** One page of the calls (id and name), from the first (`cursor` null): the app reads them from the calls feature. */
export type ListCalls = (cursor: string | null) => Promise<Page<{ id: string; name: string }>>;

/** The call select: an operator switches call; a delegate (no calls list) sees the current one. */
function CallSelect({
  callId,
  callName,
  readOnly,
  listCalls,
  onChange,
}: {
  callId: string;
  callName: string | undefined;
  readOnly: boolean;
  listCalls: ListCalls;
  onChange: (id: string) => void;
}) {
  const calls = useApiQuery(
    ['calls', 'payment-list-choices'],
    async () => {
      const all: Array<{ id: string; name: string }> = [];
      let cursor: string | null = null;
      for (let page = 0; page < 7; page++) {
        const found = await listCalls(cursor);
        all.push(...found.items.map((c) => ({ id: c.id, name: c.name })));
        cursor = found.nextCursor;
        if (!cursor) break;
      }
      return all;
    },
    { enabled: !readOnly },
  );
  const options = readOnly || !calls.data ? (callId ? [{ id: callId, name: callName ?? callId }] : []) : calls.data;
  if (callId && !options.some((c) => c.id === callId)) options.unshift({ id: callId, name: callName ?? callId });
  return (
    <SelectField
      label="Bando"
      size="small"
      value={callId}
      placeholder="Seleziona un bando"
      isDisabled={readOnly}
      onChange={(e) => e.target.value && onChange(e.target.value)}
    >
      {options.map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
    </SelectField>
  );
}

/**
 * 'Lista pagamenti' of a call (operator-admin §2): the Payment filter, the statistics box, the rows per
 * citizen with 'Record trovati' and the sum, 10/25/50 per page, four orders, the link to the user record
 * with the pending payments' badge, and 'Scarica Excel'. A delegate reads it (no write buttons).
 */
export function PaymentListPage({ listCalls }: { listCalls: ListCalls }) {
  const [params, setParams] = useSearchParams();
  const callId = params.get('id') ?? '';
  const { me } = useAuth();
  const readOnly = me?.role !== 'OPERATOR';
  const view = viewFromParams(params);
  const [draft, setDraft] = useState<PaymentFilters>(view.filters);
  const [nameError, setNameError] = useState<string | null>(null);
  const [meta, setMeta] = useState<{ sum: number; countCapped: boolean; callName: string } | null>(null);
  const [alert, setAlert] = useState<{ message: string; variation: 'error' | 'info' | 'success' } | null>(null);
  const [exporting, setExporting] = useState<number | null>(null);
  const alertKey = useRef(0);

  const list = useCursorList<DebtSummaryRow>(['payments', 'list', callId, view], async (cursor) => {
    const page = await getPaymentList(callId, view.filters, view.sort, view.limit, cursor);
    setMeta({ sum: page.sum, countCapped: page.countCapped, callName: page.callName });
    return { items: page.items, nextCursor: page.nextCursor, total: page.count };
  });
  const totals = useApiQuery(
    ['payments', 'totals', callId, view.filters.anno],
    () => getPaymentTotals(callId, view.filters.anno),
    {
      enabled: Boolean(callId),
    },
  );

  const setView = (next: Partial<View>) => setParams(paramsWithView(params, { ...view, ...next }));
  const show = (message: string, variation: 'error' | 'info' | 'success') => {
    alertKey.current += 1;
    setAlert({ message, variation });
  };

  const search = (event: FormEvent) => {
    event.preventDefault();
    // The API's own schema: the same messages beside the field.
    const parsed = debtListQuerySchema.safeParse({
      name: draft.name,
      chkNoSendMail: String(draft.chkNoSendMail),
      chkDaRiconciliare: String(draft.chkDaRiconciliare),
      anno: String(draft.anno),
    });
    if (!parsed.success) return setNameError(fieldErrors(parsed.error).name ?? debtListMessages.name);
    setNameError(null);
    setView({ filters: draft });
  };
  const cancel = () => {
    const empty = { name: '', chkNoSendMail: false, chkDaRiconciliare: false, anno: thisYear() };
    setDraft(empty);
    setNameError(null);
    setView({ filters: empty });
  };

  const downloadExcel = async () => {
    if (!list.total) return show(paymentListTexts.nothingToExport, 'info');
    setExporting(0);
    try {
      const started = performance.now();
      const rows = await getAllPayments(callId, view.filters, view.sort, setExporting);
      const fetched = performance.now();
      if (!rows.length) return show(paymentListTexts.nothingToExport, 'info');
      const { paymentsWorkbook } = await import('../utils/payments-workbook');
      const now = new Date();
      const blob = await paymentsWorkbook(rows, {
        callName: meta?.callName ?? '',
        anno: view.filters.anno,
        extractedAt: now,
      });
      const today = romeDay(now);
      saveBlob(paymentsWorkbookName(meta?.callName, today), blob);
      // What the export took (read by the browser test): reading the rows, then writing the workbook.
      Object.assign(document.body.dataset, {
        exportReadMs: String(Math.round(fetched - started)),
        exportWriteMs: String(Math.round(performance.now() - fetched)),
      });
      show(`Excel scaricato: ${counted(rows.length, ['riga', 'righe'], formatCount)}.`, 'success');
    } catch (failure) {
      show(`Attenzione. ${errorMessage(failure)}`, 'error');
    } finally {
      setExporting(null);
    }
  };

  const columns: DataTableColumn<DebtSummaryRow>[] = [
    { id: 'name', header: 'Cognome e nome', cell: (r) => `${r.cognome} ${r.nome}`, isRowHeader: true },
    { id: 'fiscalCode', header: 'Codice fiscale', cell: (r) => r.codiceFiscale, noWrap: true },
    {
      id: 'contacts',
      header: 'Contatti',
      cell: (r) => (
        <Flex direction="column" gap="0">
          {r.email ? <a href={`mailto:${r.email}`}>{r.email}</a> : null}
          {r.telefono ? <a href={`tel:${r.telefono}`}>{r.telefono}</a> : null}
          {!r.email && !r.telefono ? '—' : null}
        </Flex>
      ),
    },
    {
      id: 'amount',
      header: 'Importo',
      align: 'end',
      cell: (r) => (
        <Flex direction="column" gap="xxs" alignItems="flex-end">
          <span>{formatEuroCents(r.importoTotale)}</span>
          {r.daRiconciliare > 0 && (
            <Badge size="small" variation="error" className="reconcile-badge" data-testid="reconcile-badge">
              {RECONCILE_LABEL}
            </Badge>
          )}
        </Flex>
      ),
    },
    {
      id: 'record',
      header: 'Pagamenti',
      align: 'end',
      noWrap: true,
      cell: (r) => (
        <ButtonLink
          to={`${paths.userRecord}?citizen=${encodeURIComponent(r.userId)}`}
          size="small"
          // The name starts with the visible text, 'Pagamenti 1' (WCAG 2.5.3): a voice user says what they see.
          aria-label={`Pagamenti: ${r.paymentIds.length} da pagare, di ${r.cognome} ${r.nome}`}
          className="payment-record-link"
        >
          Pagamenti{' '}
          <Badge
            size="small"
            variation={r.paymentIds.length ? 'warning' : 'success'}
            data-testid="pending-badge"
            data-payment-ids={r.paymentIds.join(';')}
          >
            {r.paymentIds.length}
          </Badge>
        </ButtonLink>
      ),
    },
  ];

  if (!callId) return <ErrorState message="Seleziona un bando dalla lista dei bandi." />;

  return (
    <Flex direction="column" gap="medium" className="payment-list-page">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={1}>Lista pagamenti</Heading>
        <Flex gap="small" wrap="wrap">
          {/* The call detail is the operator's: a delegate has nowhere to go back to. */}
          {!readOnly && <ButtonLink to={`${paths.callDetail}?id=${encodeURIComponent(callId)}`}>Indietro</ButtonLink>}
          <Button onClick={() => void downloadExcel()} isDisabled={exporting !== null}>
            {exporting === null
              ? 'Scarica Excel'
              : `Preparazione Excel… ${counted(exporting, ['riga', 'righe'], formatCount)}`}
          </Button>
          {!readOnly && (
            <SyncPositionsButton
              callId={callId}
              onDone={() => {
                list.reload();
                totals.reload();
              }}
            />
          )}
        </Flex>
      </Flex>
      {meta?.callName && <Text className="payment-list-page__call">Bando: {meta.callName}</Text>}
      <MissingIseeNotice callId={callId} anno={view.filters.anno} />
      <PageAlert
        key={alertKey.current}
        message={alert?.message}
        variation={alert?.variation ?? 'info'}
        onDismiss={() => setAlert(null)}
      />

      <form onSubmit={search} role="search" aria-label="Filtra i pagamenti" className="filters">
        <Flex
          direction={{ base: 'column', large: 'row' }}
          gap="small"
          alignItems={{ base: 'stretch', large: 'flex-end' }}
          wrap="wrap"
        >
          <TextField
            label="Cerca per cognome e nome o codice fiscale"
            name="name"
            size="small"
            autoComplete="off"
            value={draft.name}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
            hasError={nameError !== null}
            errorMessage={nameError ?? undefined}
            descriptiveText="Inizio del cognome (e del nome) o del codice fiscale"
          />
          <CheckboxField
            name="chkNoSendMail"
            label="Email non inviata"
            value="true"
            checked={draft.chkNoSendMail}
            onChange={(e) => setDraft({ ...draft, chkNoSendMail: e.target.checked })}
          />
          <CheckboxField
            name="chkDaRiconciliare"
            label={RECONCILE_LABEL}
            value="true"
            checked={draft.chkDaRiconciliare}
            onChange={(e) => setDraft({ ...draft, chkDaRiconciliare: e.target.checked })}
          />
          <SelectField
            label="Anno"
            name="anno"
            size="small"
            value={String(draft.anno)}
            onChange={(e) => setDraft({ ...draft, anno: Number(e.target.value) })}
          >
            {years().map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </SelectField>
          <CallSelect
            callId={callId}
            callName={meta?.callName}
            readOnly={readOnly}
            listCalls={listCalls}
            onChange={(id) =>
              setParams(
                paramsWithView(new URLSearchParams({ id }), { ...view, filters: { ...view.filters, name: '' } }),
              )
            }
          />
          <Button type="submit" variation="primary" size="small">
            Cerca
          </Button>
          <Button size="small" onClick={cancel}>
            Annulla
          </Button>
        </Flex>
      </form>

      {totals.error ? (
        <ErrorState message={totals.error.message} />
      ) : totals.data ? (
        <Statistics totals={totals.data} />
      ) : (
        <LoadingState />
      )}

      <Flex justifyContent="space-between" alignItems="flex-end" wrap="wrap" gap="small">
        <Text role="status" data-testid="records-found">
          {list.isLoaded && list.total !== undefined && meta
            ? recordsFound(list.total, meta.sum, meta.countCapped)
            : ''}
        </Text>
        <Flex gap="small" wrap="wrap" alignItems="flex-end">
          <SelectField
            label="Ordina per"
            size="small"
            value={view.sort}
            onChange={(e) => setView({ sort: e.target.value as DebtSort })}
          >
            {debtSorts.map((sort) => (
              <option key={sort} value={sort}>
                {sortLabels[sort]}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Righe per pagina"
            size="small"
            value={String(view.limit)}
            onChange={(e) => setView({ limit: Number(e.target.value) as PaymentPageSize })}
          >
            {DEBT_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </SelectField>
        </Flex>
      </Flex>
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable
          caption="Pagamenti del bando per cittadino"
          columns={columns}
          rows={list.items}
          rowKey={(r) => r.userId}
          emptyText={paymentListTexts.empty}
        />
      )}
      <CursorPagination {...list.pagination} label="Paginazione dei pagamenti" />
    </Flex>
  );
}
