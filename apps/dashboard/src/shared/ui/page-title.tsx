import { Title } from '@mantine/core';
import { useEffect } from 'react';

/** The page's one h1, and the document title to match. */
export function PageTitle({ children }: { children: string }) {
  useEffect(() => {
    document.title = children;
  }, [children]);
  return (
    <Title order={1} size="h2" mb="md">
      {children}
    </Title>
  );
}
