import { Alert, Button, Code, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionContext } from '../../../shared/session/session.context';
import { Section } from '../../../shared/ui/section';
import { FormError, fieldError } from '../../../shared/ui/states';
import { useAction } from '../../../shared/ui/use-async';
import type { TotpSetup } from '../../merchant.api';
import { useMerchantApi } from '../../use-merchant-api';

/** Enrol an authenticator: setup (QR + secret), then confirm with a code; or turn it off with a code. */
export function TotpSection({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const { refresh } = useSessionContext();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [code, setCode] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const start = useAction(api.totpSetup);
  const confirm = useAction(enabled ? api.totpDisable : api.totpEnable);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await confirm.run(code.trim())) {
      setDone(enabled ? t('developers.totpDisabled') : t('developers.totpEnabled'));
      setSetup(null);
      setCode('');
      await refresh();
    }
  };

  const codeForm = (label: string) => (
    <form onSubmit={submit} noValidate>
      <Group align="flex-end">
        <TextInput
          label={t('developers.totpCode')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={fieldError(confirm.error, 'code')}
        />
        <Button type="submit" loading={confirm.busy} color={enabled ? 'red.9' : undefined}>
          {label}
        </Button>
      </Group>
      <FormError error={confirm.error} fields={['code']} />
    </form>
  );

  return (
    <Section title={t('developers.totp')}>
      <Stack align="flex-start">
        {done && (
          <Alert color="teal" role="status">
            {done}
          </Alert>
        )}
        <Text>{enabled ? t('developers.totpOn') : t('developers.totpOff')}</Text>
        {enabled && codeForm(t('developers.totpDisable'))}
        {!enabled && !setup && (
          <Button
            variant="outline"
            loading={start.busy}
            onClick={async () => {
              const r = await start.run();
              if (r) setSetup(r.value);
            }}
          >
            {t('developers.totpStart')}
          </Button>
        )}
        <FormError error={start.error} />
        {!enabled && setup && (
          <>
            <Text>{t('developers.totpScan')}</Text>
            {setup.qrImage && (
              <Image src={setup.qrImage} alt={t('developers.totpQrAlt')} w={200} h={200} fit="contain" />
            )}
            <Text>
              {t('developers.totpSecret')}: <Code data-testid="totp-secret">{setup.secret}</Code>
            </Text>
            {codeForm(t('developers.totpConfirm'))}
          </>
        )}
      </Stack>
    </Section>
  );
}
