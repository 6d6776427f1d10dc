import { Alert, Button, Group, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Section } from '../ui/section';
import { FormError, Saved, fieldError } from '../ui/states';
import { useAction } from '../ui/use-async';

export interface CallbackUrlActions {
  saveCallbackUrl(url: string | null): Promise<unknown>;
  /** The merchant dashboard's "send a test callback" (absent in the console) */
  sendTestCallback?(): Promise<{ url: string }>;
}

/** The default pay-in callback URL (empty clears it), and where offered, a test callback to it. */
export function CallbackUrlSection({
  initial,
  actions,
  onSaved,
}: {
  initial: string | null;
  actions: CallbackUrlActions;
  onSaved?(): void;
}) {
  const { t } = useTranslation();
  const api = actions;
  const [url, setUrl] = useState(initial ?? '');
  const [saved, setSaved] = useState(false);
  const save = useAction(api.saveCallbackUrl);
  const test = useAction(async () => (api.sendTestCallback ? api.sendTestCallback() : null));
  const [tested, setTested] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const trimmed = url.trim();
    if (await save.run(trimmed === '' ? null : trimmed)) {
      setSaved(true);
      onSaved?.();
    }
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
          {api.sendTestCallback && (
            <Group>
              <Button
                variant="outline"
                loading={test.busy}
                onClick={async () => {
                  setTested(null);
                  const r = await test.run();
                  if (r?.value) setTested(r.value.url);
                }}
              >
                {t('developers.sendTest')}
              </Button>
            </Group>
          )}
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

export interface AllowlistActions {
  saveAllowlist(enabled: boolean, entries: string[]): Promise<unknown>;
}

/** The API tokens' IP allowlist: enforcement on or off, and its entries (one per line or comma). */
export function AllowlistSection({
  initial,
  actions,
  intro,
  onSaved,
}: {
  initial: { enabled: boolean; entries: string[] };
  actions: AllowlistActions;
  intro?: string;
  onSaved?(): void;
}) {
  const { t } = useTranslation();
  const api = actions;
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
    if (await save.run(enabled, list)) {
      setSaved(true);
      onSaved?.();
    }
  };
  return (
    <Section title={t('developers.allowlist')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text>{intro ?? t('developers.allowlistIntro')}</Text>
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
