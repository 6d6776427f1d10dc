import { Box, Container, Group, Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../ui/language-switch';
import { PageTitle } from '../ui/page-title';

/** The frame of the signed-out pages: a header with the language switch, one card in main. */
export function PublicLayout({
  titleKey,
  heading,
  children,
}: {
  titleKey: string;
  heading: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Box component="header" px="md" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Group justify="space-between">
          <Text fw={700}>{t(titleKey)}</Text>
          <LanguageSwitch />
        </Group>
      </Box>
      <Container component="main" size={420} py="xl">
        <Paper withBorder p="lg" radius="md">
          <PageTitle>{heading}</PageTitle>
          {children}
        </Paper>
      </Container>
    </>
  );
}
