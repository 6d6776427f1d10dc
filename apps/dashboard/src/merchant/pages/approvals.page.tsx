import { Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
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

/**
 * Approval before money leaves (issue 44 part 2): the payouts held for approval, each approved or
 * rejected by another user whose role allows it, with the password (and the authentication code
 * when two-factor sign-in is on) for every decision; and the owner's settings.
 */
export default function ApprovalsPage() {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const awaiting = useAsync(() => api.awaitingApproval(), [api]);
  const [deciding, setDeciding] = useState<{ payout: PayoutAwaitingApprovalView; verb: Verb } | null>(null);
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [note, setNote] = useState('');
  const [done, setDone] = useState<string | null>(null);

  const open = (payout: PayoutAwaitingApprovalView, verb: Verb) => {
    setPassword('');
    setTotp('');
    setNote('');
    setDone(null);
    setDeciding({ payout, verb });
  };
  const decide = async () => {
    if (!deciding) return;
    const { payout, verb } = deciding;
    await api.decidePayout(payout.platformTrxId, verb, {
      password,
      ...(totp ? { totp } : {}),
      ...(note ? { note } : {}),
    });
    setDone(t(verb === 'approve' ? 'approvals.approved' : 'approvals.rejected', { id: payout.merchantTrxId }));
    awaiting.reload();
  };

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
              {
                header: t('common.actions'),
                cell: (p) => (
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      onClick={() => open(p, 'approve')}
                      aria-label={t('approvals.approveOne', { id: p.merchantTrxId })}
                    >
                      {t('approvals.approve')}
                    </Button>
                    <Button
                      size="xs"
                      color="red.9"
                      variant="outline"
                      onClick={() => open(p, 'reject')}
                      aria-label={t('approvals.rejectOne', { id: p.merchantTrxId })}
                    >
                      {t('approvals.reject')}
                    </Button>
                  </Group>
                ),
              },
            ]}
          />
        )}
      </Section>
      <ConfirmDialog
        opened={deciding !== null}
        title={
          deciding
            ? t(deciding.verb === 'approve' ? 'approvals.approveTitle' : 'approvals.rejectTitle', {
                id: deciding.payout.merchantTrxId,
                amount: formatRupiah(deciding.payout.amount),
              })
            : ''
        }
        body={
          <Stack gap="sm">
            <Text>{t(deciding?.verb === 'reject' ? 'approvals.rejectBody' : 'approvals.approveBody')}</Text>
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
