import { Button, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyText, ErrorState, LoadingState } from './states';

export interface Column<T> {
  header: string;
  cell(row: T): ReactNode;
}

/** A labelled table (the label is its accessible name) with column headers. */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  minWidth = 720,
}: {
  label: string;
  columns: Column<T>[];
  rows: T[];
  rowKey(row: T): string;
  minWidth?: number;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th scope="col" key={c.header}>
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((c) => (
                <Table.Td key={c.header}>{c.cell(row)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

interface ListState {
  items: unknown[];
  nextCursor: string | null;
  error: unknown;
  loading: boolean;
  reload(): void;
  loadMore(): void;
}

/** Under a cursor list: loading, error, empty, or "Load more". */
export function ListFooter({ list, emptyText }: { list: ListState; emptyText: string }) {
  const { t } = useTranslation();
  return (
    <>
      {list.error !== null && <ErrorState error={list.error} onRetry={list.reload} />}
      {list.loading && <LoadingState />}
      {!list.loading && list.error === null && list.items.length === 0 && <EmptyText>{emptyText}</EmptyText>}
      {list.nextCursor && !list.loading && (
        <Button variant="outline" mt="md" onClick={list.loadMore}>
          {t('common.loadMore')}
        </Button>
      )}
    </>
  );
}
