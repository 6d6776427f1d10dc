import { Button, Group, Stack } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Section } from '../../shared/ui/section';
import { FormError, Saved } from '../../shared/ui/states';
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
          <Saved show={saved} />
        </Stack>
      </form>
    </Section>
  );
}
