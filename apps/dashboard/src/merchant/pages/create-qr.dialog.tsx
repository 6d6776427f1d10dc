import { Button, Group, Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError, fieldError } from '../../shared/ui/states';
import type { Payin } from '../merchant.api';
import { useMerchantApi } from '../use-merchant-api';

/** "Create QR": amount and an optional merchant transaction ID; on success the caller opens the detail. */
export function CreateQrDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose(): void;
  onCreated(p: Payin): void;
}) {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const [amount, setAmount] = useState<number | string>('');
  const [trxId, setTrxId] = useState('');
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const amountMissing = typeof amount !== 'number' || amount <= 0;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (amountMissing) return;
    setBusy(true);
    setError(null);
    try {
      const id = trxId.trim();
      const payin = await api.createPayin({ amount: amount as number, ...(id ? { merchantTrxId: id } : {}) });
      setAmount('');
      setTrxId('');
      setChecked(false);
      onCreated(payin);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('payins.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <FormError error={error} fields={['amount', 'merchantTrxId']} />
          <NumberInput
            label={t('payins.amount')}
            required
            min={1}
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator="."
            decimalSeparator=","
            prefix="Rp "
            value={amount}
            onChange={setAmount}
            error={(checked && amountMissing && t('errors.required')) || fieldError(error, 'amount')}
            data-autofocus
          />
          <TextInput
            label={t('payins.merchantTrxId')}
            description={t('payins.merchantTrxIdHint')}
            maxLength={64}
            value={trxId}
            onChange={(e) => setTrxId(e.currentTarget.value)}
            error={fieldError(error, 'merchantTrxId')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('payins.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
