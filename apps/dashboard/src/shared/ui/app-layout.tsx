import { AppShell, Badge, Burger, Button, Group, NavLink, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink as RouterNavLink, Outlet, useLocation } from 'react-router';
import { useSessionContext } from '../session/session.context';
import { LanguageSwitch } from './language-switch';
import { LoadingState } from './states';

export interface NavItem {
  to: string;
  labelKey: string;
  /** Shown only to a merchant user whose role allows it (docs/access.md) */
  permission?: string;
}

/** The signed-in frame: header (title, user, language, sign out), navigation, main. Signed out: to sign-in. */
export function AppLayout({ titleKey, nav }: { titleKey: string; nav: NavItem[] }) {
  const { t } = useTranslation();
  const { state, signOut } = useSessionContext();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();

  if (state.status === 'loading') return <LoadingState />;
  if (state.status === 'signed-out')
    return <Navigate to="/sign-in" replace state={{ from: location.pathname, expired: state.reason === 'expired' }} />;
  const { session } = state;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('app.openNav')} />
            <Text fw={700}>{t(titleKey)}</Text>
            {session.merchant && <Text visibleFrom="sm">{session.merchant.name}</Text>}
            {session.sandbox && (
              <Badge color="gray.8" variant="filled">
                {t('app.sandbox')}
              </Badge>
            )}
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" visibleFrom="md">
              <VisuallyHidden>{t('app.signedInAs', { email: '' })}</VisuallyHidden>
              {session.user.email}
            </Text>
            <LanguageSwitch />
            <Button variant="outline" size="compact-sm" onClick={() => void signOut()}>
              {t('auth.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('app.mainNav')}>
        {nav
          .filter((item) => !item.permission || session.user.permissions.includes(item.permission))
          .map((item) => (
            <NavLink
              key={item.to}
              variant="filled"
              component={RouterNavLink}
              to={item.to}
              end={item.to === '/'}
              label={t(item.labelKey)}
              onClick={close}
              active={item.to === '/' ? location.pathname === '/' : location.pathname.startsWith(item.to)}
            />
          ))}
      </AppShell.Navbar>
      <AppShell.Main id="main">
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
