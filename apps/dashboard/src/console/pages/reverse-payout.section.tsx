import { Alert, Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { DisbursementReversalView } from '@pay/contracts/dashboard';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRupiah } from '../../shared/format/format';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { Section } from '../../shared/ui/section';
import { useConsoleApi } from '../use-console-api';

/**
 * A successful payout the beneficiary's bank returned: reversed (amount + fee back to the
 * merchant's available, its callback `disbursement.reversed`), asked first. The console's API asks
 * for a recent password, as for every change.
 */
export function ReversePayoutSection({ onReversed }: { onReversed(): void }) {
  const { t, i18n } = useTranslation();
  const api = useConsoleApi();
  const [id, setId] = useState('');
  const [reason, setReason] = useState('');
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<DisbursementReversalView | null>(null);
  const ready = id.trim() !== '' && reason.trim() !== '';
  return (
    <Section title={t('reversal.title')}>
      <Stack>
        <Text size="sm">{t('reversal.intro')}</Text>
        <TextInput
          label={t('reversal.disbursementId')}
          required
          value={id}
          onChange={(e) => setId(e.currentTarget.value)}
        />
        <Textarea
          label={t('reversal.reason')}
          description={t('reversal.reasonHint')}
          required
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        <Group>
          <Button color="red" disabled={!ready} onClick={() => setAsking(true)}>
            {t('reversal.action')}
          </Button>
        </Group>
        {done && (
          <Alert color={done.alreadyReversed ? 'yellow' : 'teal'} data-testid="reversal-result">
            {t(done.alreadyReversed ? 'reversal.already' : 'reversal.done', {
              id: done.merchantTrxId,
              amount: formatRupiah(done.returned),
              when: formatDateTime(done.reversedAt, i18n.language),
            })}
          </Alert>
        )}
      </Stack>
      <ConfirmDialog
        opened={asking}
        danger
        title={t('reversal.confirmTitle')}
        body={t('reversal.confirmBody', { id: id.trim() })}
        confirmLabel={t('reversal.action')}
        onClose={() => setAsking(false)}
        onConfirm={async () => {
          setDone(await api.reverseDisbursement(id, reason.trim()));
          onReversed();
        }}
      />
    </Section>
  );
}
