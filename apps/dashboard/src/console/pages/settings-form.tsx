import { Alert, Button, Group, Stack } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Section } from '../../shared/ui/section';
import { FormError } from '../../shared/ui/states';
import { useAction } from '../../shared/ui/use-async';

/** A section's form: submit, busy, error next to fields, "Saved." */
export function SettingsForm({
  title,
  submitLabel,
  fields,
  onSubmit,
  children,
}: {
  title: string;
  submitLabel: string;
  fields: string[];
  onSubmit(): Promise<unknown>;
  children(error: unknown): ReactNode;
}) {
  const { t } = useTranslation();
  const save = useAction(onSubmit);
  const [saved, setSaved] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    if (await save.run()) setSaved(true);
  };
  return (
    <Section title={title}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {children(save.error)}
          <Group>
            <Button type="submit" loading={save.busy}>
              {submitLabel}
            </Button>
          </Group>
          <FormError error={save.error} fields={fields} />
          {saved && (
            <Alert color="teal" role="status" py="xs">
              {t('common.saved')}
            </Alert>
          )}
        </Stack>
      </form>
    </Section>
  );
}
