import { ActionIcon, Alert, Button, Code, Group, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { AdjustmentView } from '@pay/contracts/dashboard';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRupiah } from '../../shared/format/format';
import { useSession } from '../../shared/session/session.context';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { DataTable, ListFooter } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { Section } from '../../shared/ui/section';
import { FormError } from '../../shared/ui/states';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useCursorList } from '../../shared/ui/use-async';
import { useConsoleApi } from '../use-console-api';

type StatusFilter = AdjustmentView['status'] | 'all';
interface Line {
  account: string;
  amount: string;
}
const EMPTY_LINES: Line[] = [
  { account: '', amount: '' },
  { account: '', amount: '' },
];
/** Rupiah in hundredths, so the running sum of the lines is exact */
const sen = (amount: string) => Math.round(Number(amount) * 100);

/**
 * Manual adjustments of the books, maker-checker: any operator requests one (lines in Rupiah, a
 * debit positive, a credit negative, summing to 0); another approves or rejects it (never the
 * requester); approved ones show what the ledger made of them. Every change asks for a recent
 * password (the step-up dialog), as all console changes do.
 */
export default function AdjustmentsPage() {
  const { t, i18n } = useTranslation();
  const api = useConsoleApi();
  const me = `operator:${useSession().user.id}`;
  const [status, setStatus] = useState<StatusFilter>('all');
  const list = useCursorList(() => api.adjustments(status), [api, status]);
  const [deciding, setDeciding] = useState<{ adjustment: AdjustmentView; approve: boolean } | null>(null);
  const [note, setNote] = useState('');
  const [decided, setDecided] = useState<AdjustmentView | null>(null);

  return (
    <Stack>
      <PageTitle>{t('adjustments.title')}</PageTitle>
      <Text>{t('adjustments.intro')}</Text>
      <RequestSection onRequested={list.reload} />
      {decided && (
        <Alert color={decided.status === 'approved' ? 'teal' : 'yellow'} role="status" data-testid="adjustment-decided">
          {t(decided.status === 'approved' ? 'adjustments.approved' : 'adjustments.rejected', { id: decided.id })}
        </Alert>
      )}
      <Group align="flex-end">
        <NativeSelect
          label={t('adjustments.statusFilter')}
          value={status}
          onChange={(e) => setStatus(e.currentTarget.value as StatusFilter)}
          data={(['all', 'requested', 'approved', 'rejected', 'expired'] as const).map((value) => ({
            value,
            label: t(`adjustments.statuses.${value}`),
          }))}
        />
      </Group>
      <DataTable
        label={t('adjustments.tableLabel')}
        rows={list.items}
        rowKey={(a) => a.id}
        columns={[
          { header: t('adjustments.requestedAt'), cell: (a) => formatDateTime(a.requestedAt, i18n.language) },
          {
            header: t('adjustments.merchant'),
            cell: (a) => (a.merchantId === null ? t('adjustments.platform') : String(a.merchantId)),
          },
          {
            header: t('adjustments.lines'),
            cell: (a) => (
              <Stack gap={2}>
                {a.postings.map((p) => (
                  <Text key={p.account} size="sm">
                    <Code>{p.account}</Code> {p.amount > 0 ? '' : '−'}
                    {formatRupiah(Math.abs(p.amount))} {t(p.amount > 0 ? 'adjustments.debit' : 'adjustments.credit')}
                  </Text>
                ))}
              </Stack>
            ),
          },
          { header: t('adjustments.reason'), cell: (a) => a.reason },
          { header: t('adjustments.requestedBy'), cell: (a) => a.requestedByName },
          {
            header: t('common.status'),
            cell: (a) => (
              <Stack gap={2}>
                <StatusBadge status={a.status} />
                {a.decidedByName && (
                  <Text size="xs">
                    {a.decidedByName}
                    {a.decisionNote ? `: ${a.decisionNote}` : ''}
                  </Text>
                )}
                {a.status === 'requested' && (
                  <Text size="xs">
                    {t('adjustments.expires', { when: formatDateTime(a.expiresAt, i18n.language) })}
                  </Text>
                )}
              </Stack>
            ),
          },
          {
            header: t('adjustments.ledger'),
            cell: (a) =>
              a.ledger && (
                <Stack gap={2} data-testid="adjustment-ledger">
                  <StatusBadge status={a.ledger.outcome} />
                  {a.ledger.reason && <Text size="xs">{a.ledger.reason}</Text>}
                </Stack>
              ),
          },
          {
            header: t('common.actions'),
            cell: (a) =>
              a.status !== 'requested' ? null : a.requestedBy === me ? (
                <Text size="xs">{t('adjustments.yours')}</Text>
              ) : (
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    onClick={() => (setNote(''), setDecided(null), setDeciding({ adjustment: a, approve: true }))}
                  >
                    {t('adjustments.approve')}
                  </Button>
                  <Button
                    size="xs"
                    variant="outline"
                    color="red.9"
                    onClick={() => (setNote(''), setDecided(null), setDeciding({ adjustment: a, approve: false }))}
                  >
                    {t('adjustments.reject')}
                  </Button>
                </Group>
              ),
          },
        ]}
      />
      <ListFooter list={list} emptyText={t('adjustments.empty')} />
      <ConfirmDialog
        opened={deciding !== null}
        danger={deciding?.approve === false}
        title={t(deciding?.approve ? 'adjustments.approveTitle' : 'adjustments.rejectTitle')}
        body={
          <Stack>
            <Text>{t(deciding?.approve ? 'adjustments.approveBody' : 'adjustments.rejectBody')}</Text>
            <Textarea
              label={t(deciding?.approve ? 'adjustments.noteOptional' : 'adjustments.note')}
              required={!deciding?.approve}
              maxLength={500}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
            />
          </Stack>
        }
        confirmLabel={t(deciding?.approve ? 'adjustments.approve' : 'adjustments.reject')}
        onClose={() => setDeciding(null)}
        onConfirm={async () => {
          if (!deciding) return;
          const { adjustment, approve } = deciding;
          setDecided(
            approve
              ? await api.approveAdjustment(adjustment.id, note)
              : await api.rejectAdjustment(adjustment.id, note),
          );
          list.reload();
        }}
      />
    </Stack>
  );
}

/** The request form: an optional merchant, two or more lines, a reason. */
function RequestSection({ onRequested }: { onRequested(): void }) {
  const { t } = useTranslation();
  const api = useConsoleApi();
  const [merchantId, setMerchantId] = useState('');
  const [lines, setLines] = useState<Line[]>(EMPTY_LINES);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [requested, setRequested] = useState<AdjustmentView | null>(null);
  const sum = lines.reduce((s, l) => s + (Number.isFinite(sen(l.amount)) ? sen(l.amount) : 0), 0);
  const setLine = (i: number, change: Partial<Line>) =>
    setLines(lines.map((l, j) => (j === i ? { ...l, ...change } : l)));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setRequested(null);
    try {
      const a = await api.requestAdjustment({
        merchantId: merchantId.trim() ? Number(merchantId) : null,
        postings: lines.map((l) => ({ account: l.account.trim(), amount: Number(l.amount) })),
        reason: reason.trim(),
      });
      setRequested(a);
      setLines(EMPTY_LINES);
      setReason('');
      setMerchantId('');
      onRequested();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title={t('adjustments.requestTitle')}>
      <form onSubmit={submit} aria-label={t('adjustments.requestTitle')}>
        <Stack>
          <Text size="sm">{t('adjustments.requestIntro')}</Text>
          <TextInput
            label={t('adjustments.merchantId')}
            description={t('adjustments.merchantHint')}
            inputMode="numeric"
            maw={240}
            value={merchantId}
            onChange={(e) => setMerchantId(e.currentTarget.value)}
          />
          {lines.map((l, i) => (
            <Group key={i} align="flex-end" wrap="nowrap">
              <TextInput
                label={t('adjustments.account', { n: i + 1 })}
                placeholder={i === 0 ? 'expense:adjustments' : 'merchant:7:available'}
                required
                value={l.account}
                onChange={(e) => setLine(i, { account: e.currentTarget.value })}
              />
              <TextInput
                label={t('adjustments.amount', { n: i + 1 })}
                description={i === 0 ? t('adjustments.amountHint') : undefined}
                placeholder={i === 0 ? '1500' : '-1500'}
                inputMode="decimal"
                required
                value={l.amount}
                onChange={(e) => setLine(i, { amount: e.currentTarget.value })}
              />
              {lines.length > 2 && (
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('adjustments.removeLine', { n: i + 1 })}
                  onClick={() => setLines(lines.filter((_, j) => j !== i))}
                  mb={4}
                >
                  ×
                </ActionIcon>
              )}
            </Group>
          ))}
          <Group>
            <Button
              variant="default"
              size="xs"
              disabled={lines.length >= 20}
              onClick={() => setLines([...lines, { account: '', amount: '' }])}
            >
              {t('adjustments.addLine')}
            </Button>
            <Text size="sm" c={sum === 0 ? undefined : 'red.9'} data-testid="adjustment-sum">
              {sum === 0 ? t('adjustments.balanced') : t('adjustments.unbalanced', { sum: formatRupiah(sum / 100) })}
            </Text>
          </Group>
          <Textarea
            label={t('adjustments.reason')}
            description={t('adjustments.reasonHint')}
            required
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <FormError error={error} />
          {requested && (
            <Alert color="teal" role="status" data-testid="adjustment-requested">
              {t('adjustments.requested', { id: requested.id })}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={busy}>
              {t('adjustments.request')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
