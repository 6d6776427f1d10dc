import { Alert, Button, Code, Group, NativeSelect, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/format';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { DataTable, ListFooter } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useCursorList } from '../../shared/ui/use-async';
import type { DeadLetter, DeadLetterFilters } from '../console.api';
import { useConsoleApi } from '../use-console-api';

export default function DeadLettersPage() {
  const { t, i18n } = useTranslation();
  const api = useConsoleApi();
  const [filters, setFilters] = useState<DeadLetterFilters>({ status: 'open', topic: '' });
  const [draft, setDraft] = useState<DeadLetterFilters>(filters);
  const list = useCursorList(() => api.deadLetters(filters), [api, filters]);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
  };
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
      <form onSubmit={apply} role="search">
        <Group align="flex-end" mb="md">
          <NativeSelect
            label={t('deadLetters.statusFilter')}
            value={draft.status}
            onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value as DeadLetterFilters['status'] })}
            data={(['open', 'replayed', 'resolved', 'all'] as const).map((value) => ({
              value,
              label: t(`deadLetters.statuses.${value}`),
            }))}
          />
          <TextInput
            label={t('deadLetters.topicFilter')}
            placeholder="ledger.commands.v1"
            value={draft.topic}
            onChange={(e) => setDraft({ ...draft, topic: e.currentTarget.value })}
          />
          <Button type="submit" variant="default">
            {t('deadLetters.apply')}
          </Button>
        </Group>
      </form>
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
