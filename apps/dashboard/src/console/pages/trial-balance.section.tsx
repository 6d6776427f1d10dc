import type { TrialBalanceView } from '@pay/contracts/dashboard';
import { Alert, Button, Code, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRupiah } from '../../shared/format/format';
import { useApi } from '../../shared/session/session.context';
import { DataTable } from '../../shared/ui/data-table';
import { FormError } from '../../shared/ui/states';

/** The platform's books (`admin ledger trial-balance`): every account as a debit or a credit, now or at a day's close. */
export function TrialBalanceSection() {
  const { t } = useTranslation();
  const api = useApi();
  const [date, setDate] = useState('');
  const [tb, setTb] = useState<TrialBalanceView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const load = async () => {
    setBusy(true);
    setError(null);
    try {
      setTb(await api.get<TrialBalanceView>(`/ledger/trial-balance${date ? `?date=${encodeURIComponent(date)}` : ''}`));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const amount = (n: number) => (n === 0 ? '' : formatRupiah(n));
  return (
    <Stack>
      <Title order={2} size="h3">
        {t('ledger.books.title')}
      </Title>
      <Text>{t('ledger.books.intro')}</Text>
      <Group align="end">
        <TextInput
          label={t('ledger.books.date')}
          description={t('ledger.books.dateHint')}
          type="date"
          value={date}
          onChange={(e) => setDate(e.currentTarget.value)}
        />
        <Button onClick={load} loading={busy}>
          {t('ledger.books.show')}
        </Button>
      </Group>
      <FormError error={error} />
      {tb && (
        <>
          <Alert color={tb.balanced ? 'teal' : 'red'} role="status">
            {t(tb.balanced ? 'ledger.books.balanced' : 'ledger.books.unbalanced', {
              when: tb.asOf ?? t('ledger.books.now'),
              entries: tb.entries,
              debit: formatRupiah(tb.totalDebit),
              credit: formatRupiah(tb.totalCredit),
            })}
          </Alert>
          <DataTable
            label={t('ledger.books.tableLabel')}
            rows={[
              ...tb.lines,
              { account: '', kind: '', merchantId: null, debit: tb.totalDebit, credit: tb.totalCredit },
            ]}
            rowKey={(l) => l.account || 'total'}
            columns={[
              {
                header: t('ledger.books.account'),
                cell: (l) => (l.account ? <Code>{l.account}</Code> : <b>{t('ledger.books.total')}</b>),
              },
              {
                header: t('ledger.books.kind'),
                cell: (l) => (l.kind ? t(`ledger.books.kinds.${l.kind}`, l.kind) : ''),
              },
              { header: t('ledger.books.debit'), cell: (l) => amount(l.debit) },
              { header: t('ledger.books.credit'), cell: (l) => amount(l.credit) },
            ]}
          />
        </>
      )}
    </Stack>
  );
}
