import { Button, Checkbox, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import type { PayoutApprovalSettingsView, PayoutAwaitingApprovalView } from '@pay/contracts/dashboard';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRupiah } from '../../shared/format/format';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { DataTable } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { Section } from '../../shared/ui/section';
import { EmptyText, ErrorState, FormError, LoadingState, Saved } from '../../shared/ui/states';
import { useAsync } from '../../shared/ui/use-async';
import { useMerchantApi } from '../use-merchant-api';

type Verb = 'approve' | 'reject';
/** What a decision is on: a payout (by its platformTrxId) or a whole batch (by its batchId). */
interface Subject {
  kind: 'payout' | 'batch';
  id: string;
  label: string;
  amount: number;
}

/**
 * Approval before money leaves (issue 44 part 2): the payouts held for approval, each approved or
 * rejected by another user whose role allows it, with the password (and the authentication code
 * when two-factor sign-in is on) for every decision; and the owner's settings.
 */
export default function ApprovalsPage() {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const awaiting = useAsync(() => api.awaitingApproval(), [api]);
  const batches = useAsync(() => api.batchesAwaitingApproval(), [api]);
  const [deciding, setDeciding] = useState<{ subject: Subject; verb: Verb } | null>(null);
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [note, setNote] = useState('');
  const [done, setDone] = useState<string | null>(null);

  const open = (subject: Subject, verb: Verb) => {
    setPassword('');
    setTotp('');
    setNote('');
    setDone(null);
    setDeciding({ subject, verb });
  };
  const payout = (p: PayoutAwaitingApprovalView): Subject => ({
    kind: 'payout',
    id: p.platformTrxId,
    label: p.merchantTrxId,
    amount: p.amount,
  });
  const decide = async () => {
    if (!deciding) return;
    const { subject, verb } = deciding;
    const body = { password, ...(totp ? { totp } : {}), ...(note ? { note } : {}) };
    if (subject.kind === 'batch') await api.decideBatch(subject.id, verb, body);
    else await api.decidePayout(subject.id, verb, body);
    setDone(t(verb === 'approve' ? 'approvals.approved' : 'approvals.rejected', { id: subject.label }));
    awaiting.reload();
    batches.reload();
  };
  const actions = (subject: Subject) => (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        onClick={() => open(subject, 'approve')}
        aria-label={t('approvals.approveOne', { id: subject.label })}
      >
        {t('approvals.approve')}
      </Button>
      <Button
        size="xs"
        color="red.9"
        variant="outline"
        onClick={() => open(subject, 'reject')}
        aria-label={t('approvals.rejectOne', { id: subject.label })}
      >
        {t('approvals.reject')}
      </Button>
    </Group>
  );

  return (
    <Stack>
      <PageTitle>{t('approvals.title')}</PageTitle>
      <Text maw={720}>{t('approvals.intro')}</Text>
      {done && (
        <Text role="status" data-testid="approval-done">
          {done}
        </Text>
      )}
      <Section title={t('approvals.awaiting')}>
        {awaiting.loading && !awaiting.data ? (
          <LoadingState />
        ) : awaiting.error ? (
          <ErrorState error={awaiting.error} onRetry={awaiting.reload} />
        ) : awaiting.data && awaiting.data.length === 0 ? (
          <EmptyText>{t('approvals.none')}</EmptyText>
        ) : (
          <DataTable
            label={t('approvals.awaiting')}
            minWidth={980}
            rows={awaiting.data ?? []}
            rowKey={(p) => p.platformTrxId}
            columns={[
              { header: t('payouts.merchantTrxId'), cell: (p) => p.merchantTrxId },
              { header: t('payouts.account'), cell: (p) => `${p.accountName} (${p.bankCode} ${p.accountNo})` },
              { header: t('common.amount'), cell: (p) => formatRupiah(p.amount) },
              { header: t('approvals.total'), cell: (p) => formatRupiah(p.totalAmount) },
              { header: t('approvals.createdBy'), cell: (p) => p.createdBy ?? '' },
              { header: t('approvals.expiresAt'), cell: (p) => new Date(p.expiresAt).toLocaleString() },
              { header: t('common.actions'), cell: (p) => actions(payout(p)) },
            ]}
          />
        )}
      </Section>
      <Section title={t('approvals.batches')}>
        {batches.loading && !batches.data ? (
          <LoadingState />
        ) : batches.error ? (
          <ErrorState error={batches.error} onRetry={batches.reload} />
        ) : batches.data && batches.data.length === 0 ? (
          <EmptyText>{t('approvals.noBatches')}</EmptyText>
        ) : (
          <DataTable
            label={t('approvals.batches')}
            minWidth={900}
            rows={batches.data ?? []}
            rowKey={(b) => b.batchId}
            columns={[
              { header: t('batches.batchId'), cell: (b) => b.batchId },
              { header: t('approvals.rows'), cell: (b) => `${b.acceptedCount} / ${b.rowCount}` },
              { header: t('common.amount'), cell: (b) => formatRupiah(b.acceptedAmount) },
              { header: t('approvals.createdBy'), cell: (b) => b.createdBy ?? '' },
              { header: t('approvals.expiresAt'), cell: (b) => new Date(b.expiresAt).toLocaleString() },
              {
                header: t('common.actions'),
                cell: (b) => actions({ kind: 'batch', id: b.batchId, label: b.batchId, amount: b.acceptedAmount }),
              },
            ]}
          />
        )}
      </Section>
      <ConfirmDialog
        opened={deciding !== null}
        title={
          deciding
            ? t(`approvals.${deciding.verb}${deciding.subject.kind === 'batch' ? 'Batch' : ''}Title` as const, {
                id: deciding.subject.label,
                amount: formatRupiah(deciding.subject.amount),
              })
            : ''
        }
        body={
          <Stack gap="sm">
            <Text>
              {t(
                `approvals.${deciding?.verb ?? 'approve'}${deciding?.subject.kind === 'batch' ? 'Batch' : ''}Body` as const,
              )}
            </Text>
            <TextInput
              type="password"
              label={t('approvals.password')}
              required
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <TextInput
              label={t('approvals.totp')}
              description={t('approvals.totpHelp')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={16}
              value={totp}
              onChange={(e) => setTotp(e.currentTarget.value)}
            />
            <TextInput
              label={t('approvals.note')}
              maxLength={500}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
            />
          </Stack>
        }
        confirmLabel={t(deciding?.verb === 'reject' ? 'approvals.reject' : 'approvals.approve')}
        danger={deciding?.verb === 'reject'}
        onConfirm={decide}
        onClose={() => setDeciding(null)}
      />
      <SettingsSection />
    </Stack>
  );
}

function SettingsSection() {
  const api = useMerchantApi();
  const current = useAsync(() => api.approvalSettings(), [api]);
  if (current.loading && !current.data) return <LoadingState />;
  if (current.error) return <ErrorState error={current.error} onRetry={current.reload} />;
  return current.data ? <SettingsForm initial={current.data} /> : null;
}

function SettingsForm({ initial }: { initial: PayoutApprovalSettingsView }) {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const [threshold, setThreshold] = useState<string | number>(initial.threshold ?? '');
  const [hours, setHours] = useState<string | number>(initial.ttlSeconds / 3600);
  const [everyBatch, setEveryBatch] = useState(initial.batches);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      await api.saveApprovalSettings({
        threshold: threshold === '' ? null : Number(threshold),
        ttlSeconds: Math.round(Number(hours) * 3600),
        batches: everyBatch,
      });
      setSaved(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title={t('approvals.settings')}>
      <form onSubmit={save} noValidate>
        <Stack maw={480}>
          <Text size="sm">{t('approvals.settingsHelp')}</Text>
          <NumberInput
            label={t('approvals.threshold')}
            description={t('approvals.thresholdHelp')}
            min={0}
            decimalScale={2}
            thousandSeparator=","
            value={threshold}
            onChange={setThreshold}
          />
          <Checkbox
            label={t('approvals.everyBatch')}
            checked={everyBatch}
            onChange={(e) => setEveryBatch(e.currentTarget.checked)}
          />
          <NumberInput
            label={t('approvals.expiryHours')}
            description={t('approvals.expiryHelp')}
            min={1}
            max={168}
            decimalScale={2}
            value={hours}
            onChange={setHours}
          />
          <FormError error={error} />
          <Group>
            <Button type="submit" loading={busy}>
              {t('approvals.save')}
            </Button>
            <Saved show={saved} />
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
