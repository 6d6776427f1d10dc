import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../format/format';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { OnceSecret } from '../ui/secret';
import { Section } from '../ui/section';
import { FormError } from '../ui/states';
import { useAction } from '../ui/use-async';

/**
 * The webhook signing secret: revealed on demand (the password proved within the step-up window),
 * rotated only once confirmed, saying that the old one keeps signing for 24 hours.
 */
export interface WebhookSecretActions {
  revealWebhookSecret(): Promise<{ secret: string }>;
  rotateWebhookSecret(): Promise<{ secret: string; previousExpiresAt: string | null }>;
}

export function WebhookSection({ actions, intro }: { actions: WebhookSecretActions; intro?: string }) {
  const { t, i18n } = useTranslation();
  const api = actions;
  const [shown, setShown] = useState<string | null>(null);
  const [rotated, setRotated] = useState<{ secret: string; previousExpiresAt: string | null } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const reveal = useAction(api.revealWebhookSecret);
  return (
    <Section title={t('developers.webhook')}>
      <Stack align="flex-start">
        <Text>{intro ?? t('developers.webhookIntro')}</Text>
        <Group>
          <Button
            variant="outline"
            loading={reveal.busy}
            onClick={async () => {
              const s = await reveal.run();
              if (s) setShown(s.value.secret);
            }}
          >
            {t('developers.reveal')}
          </Button>
          <Button variant="outline" color="red.9" onClick={() => setConfirming(true)}>
            {t('developers.rotate')}
          </Button>
        </Group>
        <FormError error={reveal.error} />
        {shown && !rotated && (
          <Alert color="blue" title={t('developers.currentSecret')}>
            <Group gap="sm" wrap="nowrap" align="center">
              <Code data-testid="webhook-secret" style={{ wordBreak: 'break-all' }}>
                {shown}
              </Code>
              <CopyButton value={shown}>
                {({ copied, copy }) => (
                  <Button
                    size="xs"
                    variant="outline"
                    onClick={copy}
                    aria-label={`${t('common.copy')}: ${t('developers.currentSecret')}`}
                  >
                    {copied ? t('common.copied') : t('common.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Alert>
        )}
        {rotated && (
          <>
            <OnceSecret label={t('developers.newSecret')} value={rotated.secret} testId="new-webhook-secret" />
            {rotated.previousExpiresAt && (
              <Text role="status">
                {t('developers.oldSecretUntil', { time: formatDateTime(rotated.previousExpiresAt, i18n.language) })}
              </Text>
            )}
          </>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('developers.rotateTitle')}
        body={t('developers.rotateBody')}
        confirmLabel={t('developers.rotateConfirm')}
        danger
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          setRotated(await api.rotateWebhookSecret());
          setShown(null);
        }}
      />
    </Section>
  );
}
