import { Button, Group, Modal, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from './states';

interface Props {
  opened: boolean;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm(): Promise<unknown>;
  onClose(): void;
}

/** "Are you sure?" for actions that cannot be undone; shows the call's error in place. */
export function ConfirmDialog({ opened, title, body, confirmLabel, danger, onConfirm, onClose }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} closeButtonProps={{ 'aria-label': t('common.close') }}>
      {typeof body === 'string' ? <Text mb="md">{body}</Text> : <div style={{ marginBottom: 16 }}>{body}</div>}
      <FormError error={error} />
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button color={danger ? 'red.9' : undefined} loading={busy} onClick={confirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
