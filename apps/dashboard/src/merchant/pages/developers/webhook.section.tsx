import { Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OnceSecret } from '../../../shared/ui/secret';
import { Section } from '../../../shared/ui/section';
import { FormError } from '../../../shared/ui/states';
import { useAction } from '../../../shared/ui/use-async';
import { useMerchantApi } from '../../use-merchant-api';

export function WebhookSection() {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useAction(api.rotateWebhookSecret);
  return (
    <Section title={t('developers.webhook')}>
      <Stack align="flex-start">
        <Text>{t('developers.webhookIntro')}</Text>
        <Button
          variant="outline"
          loading={rotate.busy}
          onClick={async () => {
            const s = await rotate.run();
            if (s) setSecret(s.value);
          }}
        >
          {t('developers.rotate')}
        </Button>
        <FormError error={rotate.error} />
        {secret && <OnceSecret label={t('developers.newSecret')} value={secret} testId="new-webhook-secret" />}
      </Stack>
    </Section>
  );
}
