import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { OnceSecret } from '../../shared/ui/secret';
import { FormError, fieldError } from '../../shared/ui/states';
import { useAction } from '../../shared/ui/use-async';
import type { MerchantCreated } from '../console.api';
import { useConsoleApi } from '../use-console-api';

/** "Create merchant": a name; then the API token and webhook secret, shown once. */
export function CreateMerchantDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose(): void;
  onCreated(): void;
}) {
  const { t } = useTranslation();
  const api = useConsoleApi();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<MerchantCreated | null>(null);
  const create = useAction(api.createMerchant);

  const close = () => {
    setCreated(null);
    setName('');
    create.reset();
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const r = await create.run(name.trim());
    if (r) {
      setCreated(r.value);
      onCreated();
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? t('merchants.created') : t('merchants.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
    >
      {created ? (
        <Stack>
          <OnceSecret label={t('merchants.token')} value={created.token} testId="new-merchant-token" />
          <OnceSecret
            label={t('merchants.webhookSecret')}
            value={created.webhookSecret}
            testId="new-merchant-webhook-secret"
          />
          <Group justify="flex-end">
            <Button onClick={close}>{t('common.close')}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <FormError error={create.error} fields={['name']} />
            <TextInput
              label={t('merchants.merchantNameLabel')}
              required
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fieldError(create.error, 'name')}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={create.busy}>
                {t('common.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
