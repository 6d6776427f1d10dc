import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A secret the server shows once (API token, webhook secret, set-password link), with a copy button. */
export function OnceSecret({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="blue" title={label}>
      <Stack gap="xs">
        <Text size="sm">{t('common.shownOnce')}</Text>
        <Group gap="sm" wrap="nowrap" align="center">
          <Code data-testid={testId} style={{ wordBreak: 'break-all' }}>
            {value}
          </Code>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button size="xs" variant="outline" onClick={copy} aria-label={`${t('common.copy')}: ${label}`}>
                {copied ? t('common.copied') : t('common.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}
