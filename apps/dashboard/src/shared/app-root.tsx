import '@mantine/core/styles.css';
import { Anchor, MantineProvider, Stack } from '@mantine/core';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { createHashRouter, Link, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { ReauthDialog } from './auth/reauth.dialog';
import { initI18n } from './i18n/i18n';
import { SessionProvider } from './session/session.context';
import { AppLayout, type NavItem } from './ui/app-layout';
import { PageTitle } from './ui/page-title';
import { LoadingState } from './ui/states';
import { cssVariablesResolver, theme } from './ui/theme';

const SignInPage = lazy(() => import('./auth/sign-in.page'));
const SetPasswordPage = lazy(() => import('./auth/set-password.page'));

function NotFound() {
  const { t } = useTranslation();
  return (
    <Stack>
      <PageTitle>{t('common.notFound')}</PageTitle>
      <Anchor component={Link} to="/">
        {t('common.backHome')}
      </Anchor>
    </Stack>
  );
}

export interface AppDefinition {
  /** `/dashboard/api` or `/console/api` */
  apiBase: string;
  titleKey: string;
  nav: NavItem[];
  /** The signed-in pages (lazy), relative to `/` */
  pages: RouteObject[];
}

/** Mounts one of the two apps: the sign-in pages, and the signed-in pages inside the shell. */
export function mountApp(app: AppDefinition): void {
  initI18n();
  const suspended = (el: React.ReactNode) => <Suspense fallback={<LoadingState />}>{el}</Suspense>;
  const router = createHashRouter([
    { path: '/sign-in', element: suspended(<SignInPage titleKey={app.titleKey} />) },
    { path: '/set-password/:token', element: suspended(<SetPasswordPage titleKey={app.titleKey} />) },
    {
      path: '/',
      element: <AppLayout titleKey={app.titleKey} nav={app.nav} />,
      children: [...app.pages, { path: '*', element: <NotFound /> }],
    },
  ]);
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root element');
  createRoot(root).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <SessionProvider baseUrl={app.apiBase}>
          <RouterProvider router={router} />
          <ReauthDialog />
        </SessionProvider>
      </MantineProvider>
    </StrictMode>,
  );
}
