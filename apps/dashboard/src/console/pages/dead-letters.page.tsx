import { Alert, Button, Code } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/format';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { DataTable, ListFooter } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useCursorList } from '../../shared/ui/use-async';
import type { DeadLetter } from '../console.api';
import { useConsoleApi } from '../use-console-api';

export default function DeadLettersPage() {
  const { t, i18n } = useTranslation();
  const api = useConsoleApi();
  const list = useCursorList((cursor) => api.deadLetters(cursor), [api]);
  const [replaying, setReplaying] = useState<DeadLetter | null>(null);
  const [done, setDone] = useState(false);
  return (
    <>
      <PageTitle>{t('deadLetters.title')}</PageTitle>
      {done && (
        <Alert color="teal" role="status" mb="md">
          {t('deadLetters.replayed')}
        </Alert>
      )}
      <DataTable
        label={t('deadLetters.tableLabel')}
        rows={list.items}
        rowKey={(d) => d.id}
        columns={[
          { header: 'ID', cell: (d) => d.id },
          { header: t('deadLetters.topic'), cell: (d) => <Code>{d.topic}</Code> },
          { header: t('deadLetters.reason'), cell: (d) => d.error },
          { header: t('common.status'), cell: (d) => d.status && <StatusBadge status={d.status} /> },
          { header: t('deadLetters.createdAt'), cell: (d) => formatDateTime(d.deadLetteredAt, i18n.language) },
          { header: t('deadLetters.replayedAt'), cell: (d) => formatDateTime(d.replayedAt, i18n.language) },
          {
            header: t('common.actions'),
            cell: (d) =>
              d.status !== 'replayed' && d.status !== 'resolved' ? (
                <Button size="xs" variant="outline" onClick={() => setReplaying(d)}>
                  {t('deadLetters.replay')}
                </Button>
              ) : null,
          },
        ]}
      />
      <ListFooter list={list} emptyText={t('deadLetters.empty')} />
      <ConfirmDialog
        opened={replaying !== null}
        title={t('deadLetters.replayTitle')}
        body={t('deadLetters.replayBody', { id: replaying?.id ?? '', topic: replaying?.topic ?? '' })}
        confirmLabel={t('deadLetters.replayConfirm')}
        onClose={() => setReplaying(null)}
        onConfirm={async () => {
          setDone(false);
          if (replaying) await api.replayDeadLetter(replaying.id);
          setDone(true);
          list.reload();
        }}
      />
    </>
  );
}
