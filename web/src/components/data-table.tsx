import { Table, TableBody, TableCell, TableHead, TableRow, Text, View, VisuallyHidden } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';

export interface DataTableColumn<T> {
  /** Stable key of the column. */
  id: string;
  /** Header text (Italian); with `headerHidden` it is read by screen readers only. */
  header: string;
  headerHidden?: boolean;
  cell: (row: T) => ReactNode;
  /** Right-align numbers and amounts. */
  align?: 'start' | 'end';
  /** The cell names its row (e.g. the band's name): rendered as <th scope="row">. */
  isRowHeader?: boolean;
  /** Keep the cell on one line (codes, amounts, action buttons). */
  noWrap?: boolean;
  /** A name that may be one long word (a service's, a call's): it breaks anywhere rather than widen the table past its actions. */
  breakWords?: boolean;
  /** A sortable column: its header is a button that toggles the order, and the header says the order (aria-sort). */
  sort?: { direction: 'ascending' | 'descending' | 'none'; onToggle: () => void };
}

export interface DataTableProps<T> {
  /** What the table lists, e.g. 'Elenco delle fasce ISEE': the caption screen readers announce. */
  caption: string;
  /** Show the caption on screen too (hidden visually by default: the page title says it). */
  captionVisible?: boolean;
  columns: DataTableColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** Shown instead of the table when there are no rows, e.g. 'Non sono presenti range'. */
  emptyText: string;
  /** A class for a row (e.g. a tint for its state). */
  rowClassName?: (row: T) => string | undefined;
}

/** A plain data table: caption, column headers (<th scope="col">), one row per item, an empty text. */
export function DataTable<T>({
  caption,
  captionVisible = false,
  columns,
  rows,
  rowKey,
  emptyText,
  rowClassName,
}: DataTableProps<T>) {
  if (rows.length === 0) {
    return (
      <Text as="p" className="data-table__empty" padding="medium">
        {emptyText}
      </Text>
    );
  }
  return (
    // The region scrolls sideways on narrow screens; it is focusable so the keyboard can scroll it too.
    // position: relative keeps absolutely positioned children (visually hidden labels) inside the scroll box.
    <View className="data-table" overflow="auto" position="relative" tabIndex={0} role="region" aria-label={caption}>
      <Table
        caption={captionVisible ? caption : <VisuallyHidden>{caption}</VisuallyHidden>}
        variation="striped"
        highlightOnHover
        size="small"
      >
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell
                as="th"
                scope="col"
                key={column.id}
                textAlign={column.align === 'end' ? 'end' : 'start'}
                aria-sort={column.sort ? column.sort.direction : undefined}
              >
                {column.sort ? (
                  <button type="button" className="sort-button" onClick={column.sort.onToggle}>
                    {column.header}
                    <span aria-hidden="true" className="sort-button__icon">
                      {column.sort.direction === 'ascending' ? '▲' : column.sort.direction === 'descending' ? '▼' : '⇅'}
                    </span>
                  </button>
                ) : column.headerHidden ? (
                  <VisuallyHidden>{column.header}</VisuallyHidden>
                ) : (
                  column.header
                )}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={rowKey(row)} className={rowClassName?.(row)}>
              {columns.map((column) => (
                <TableCell
                  key={column.id}
                  as={column.isRowHeader ? 'th' : 'td'}
                  scope={column.isRowHeader ? 'row' : undefined}
                  textAlign={column.align === 'end' ? 'end' : 'start'}
                  whiteSpace={column.noWrap ? 'nowrap' : undefined}
                  className={column.breakWords ? 'data-table__cell--break' : undefined}
                >
                  {column.cell(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </View>
  );
}
