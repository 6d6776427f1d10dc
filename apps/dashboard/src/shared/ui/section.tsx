import { Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A titled card: a <section> with an h2. Deliberately not aria-labelledby: a named section would
 * answer getByLabel() for its title too ("Callback URL" the section and "Callback URL" the field).
 */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}
