import { Alert, Button, Group, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Section } from '../../../shared/ui/section';
import { FormError, fieldError } from '../../../shared/ui/states';
import { useAction } from '../../../shared/ui/use-async';
import type { Developers } from '../../merchant.api';
import { useMerchantApi } from '../../use-merchant-api';

function Saved({ show }: { show: boolean }) {
  const { t } = useTranslation();
  return show ? (
    <Alert color="teal" role="status" py="xs">
      {t('common.saved')}
    </Alert>
  ) : null;
}

export function CallbackUrlSection({ initial }: { initial: string | null }) {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const [url, setUrl] = useState(initial ?? '');
  const [saved, setSaved] = useState(false);
  const save = useAction(api.saveCallbackUrl);
  const test = useAction(api.sendTestCallback);
  const [tested, setTested] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const trimmed = url.trim();
    if (await save.run(trimmed === '' ? null : trimmed)) setSaved(true);
  };
  return (
    <Section title={t('developers.callbackUrl')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('developers.callbackUrl')}
            description={t('developers.callbackUrlHint')}
            type="url"
            inputMode="url"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={fieldError(save.error, 'url')}
          />
          <Group>
            <Button type="submit" loading={save.busy}>
              {t('developers.saveCallbackUrl')}
            </Button>
          </Group>
          <FormError error={save.error} fields={['url']} />
          <Saved show={saved} />
          <Group>
            <Button
              variant="outline"
              loading={test.busy}
              onClick={async () => {
                setTested(null);
                const r = await test.run();
                if (r) setTested(r.value.url);
              }}
            >
              {t('developers.sendTest')}
            </Button>
          </Group>
          <FormError error={test.error} />
          {tested && (
            <Alert color="teal" role="status" py="xs">
              {t('developers.testSent', { url: tested })}
            </Alert>
          )}
        </Stack>
      </form>
    </Section>
  );
}

export function AllowlistSection({ initial }: { initial: Developers['allowlist'] }) {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const [enabled, setEnabled] = useState(initial.enabled);
  const [entries, setEntries] = useState(initial.entries.join('\n'));
  const [saved, setSaved] = useState(false);
  const save = useAction(api.saveAllowlist);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const list = entries
      .split(/[\n,]/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (await save.run(enabled, list)) setSaved(true);
  };
  return (
    <Section title={t('developers.allowlist')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text>{t('developers.allowlistIntro')}</Text>
          <Switch
            label={t('developers.allowlistEnabled')}
            checked={enabled}
            onChange={(e) => setEnabled(e.currentTarget.checked)}
          />
          <Textarea
            label={t('developers.allowlistEntries')}
            description={t('developers.allowlistHint')}
            autosize
            minRows={3}
            value={entries}
            onChange={(e) => setEntries(e.currentTarget.value)}
            error={fieldError(save.error, 'entries')}
            styles={{ input: { fontFamily: 'monospace' } }}
          />
          <Group>
            <Button type="submit" loading={save.busy}>
              {t('developers.saveAllowlist')}
            </Button>
          </Group>
          <FormError error={save.error} fields={['entries', 'enabled']} />
          <Saved show={saved} />
        </Stack>
      </form>
    </Section>
  );
}
