import { Alert, Button, Group, NumberInput, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRupiah } from '../../shared/format/format';
import { useCan } from '../../shared/session/session.context';
import { FormError, fieldError } from '../../shared/ui/states';
import { StatusBadge } from '../../shared/ui/status-badge';
import type { Payin } from '../merchant.api';
import { useMerchantApi } from '../use-merchant-api';

/**
 * A paid pay-in's refunds (issue 44): what was refunded, what is left, each refund with its
 * status; and, while something is left, the form that refunds all or part of it (the merchant
 * API's rules: POST /dashboard/api/payins/:merchantTrxId/refunds).
 */
export function PayinRefunds({ payin, onRefunded }: { payin: Payin; onRefunded(): void }) {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const [amount, setAmount] = useState<number | string>('');
  const [reason, setReason] = useState('');
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [accepted, setAccepted] = useState<string | null>(null);

  const left = payin.refundableAmount ?? 0;
  const can = useCan();
  const amountMissing = typeof amount !== 'number' || amount <= 0;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (amountMissing) return;
    setBusy(true);
    setError(null);
    setAccepted(null);
    try {
      const reasonText = reason.trim();
      const refund = await api.refundPayin(payin.merchantTrxId, {
        amount: amount as number,
        ...(reasonText ? { reason: reasonText } : {}),
      });
      setAccepted(refund.refundId);
      setAmount('');
      setReason('');
      setChecked(false);
      onRefunded();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (payin.status !== 'success') return null;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        <Title order={3} size="h4">
          {t('payins.refunds')}
        </Title>
        <Group>
          <Text>
            {t('payins.refunded')}: {formatRupiah(payin.refundedAmount ?? 0)}
          </Text>
          <Text>
            {t('payins.refundable')}: {formatRupiah(left)}
          </Text>
        </Group>
        {payin.refunds.length === 0 ? (
          <Text c="dimmed">{t('payins.noRefunds')}</Text>
        ) : (
          <Table aria-label={t('payins.refundsLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('payins.refundId')}</Table.Th>
                <Table.Th>{t('payins.amount')}</Table.Th>
                <Table.Th>{t('common.status')}</Table.Th>
                <Table.Th>{t('payins.refundNo')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {payin.refunds.map((r) => (
                <Table.Tr key={r.refundId}>
                  <Table.Td>{r.refundId}</Table.Td>
                  <Table.Td>{formatRupiah(r.amount)}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={r.status} testId={`refund-status-${r.refundId}`} />
                  </Table.Td>
                  <Table.Td>{r.refundNo ?? r.failureReason ?? '–'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {accepted && (
          <Alert color="teal" role="status">
            {t('payins.refundAccepted', { id: accepted })}
          </Alert>
        )}
        {left > 0 && can('refunds:write') && (
          <form onSubmit={submit} noValidate aria-label={t('payins.refundTitle')}>
            <Stack>
              <Text size="sm">{t('payins.refundIntro')}</Text>
              <FormError error={error} fields={['amount', 'reason']} />
              <NumberInput
                label={t('payins.refundAmount')}
                required
                min={1}
                max={left}
                decimalScale={2}
                allowNegative={false}
                thousandSeparator="."
                decimalSeparator=","
                prefix="Rp "
                value={amount}
                onChange={setAmount}
                error={(checked && amountMissing && t('errors.required')) || fieldError(error, 'amount')}
              />
              <TextInput
                label={t('payins.refundReason')}
                maxLength={256}
                value={reason}
                onChange={(e) => setReason(e.currentTarget.value)}
                error={fieldError(error, 'reason')}
              />
              <Group justify="flex-end">
                <Button type="submit" loading={busy} color="red">
                  {t('payins.refundSend', { amount: formatRupiah(typeof amount === 'number' ? amount : 0) })}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
