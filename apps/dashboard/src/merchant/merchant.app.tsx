import { lazy } from 'react';
import { mountApp } from '../shared/app-root';

const OverviewPage = lazy(() => import('./pages/overview.page'));
const PayinsPage = lazy(() => import('./pages/payins.page'));
const PayinDetailPage = lazy(() => import('./pages/payin-detail.page'));
const PayoutsPage = lazy(() => import('./pages/payouts.page'));
const PayoutDetailPage = lazy(() => import('./pages/payout-detail.page'));
const BatchUploadPage = lazy(() => import('./pages/batch-upload.page'));
const ApprovalsPage = lazy(() => import('./pages/approvals.page'));
const ReconPage = lazy(() => import('./pages/recon.page'));
const DevelopersPage = lazy(() => import('./pages/developers.page'));
const ActivityPage = lazy(() => import('./pages/activity.page'));

mountApp({
  apiBase: '/dashboard/api',
  titleKey: 'app.merchantTitle',
  nav: [
    { to: '/', labelKey: 'nav.overview' },
    { to: '/payins', labelKey: 'nav.payins' },
    { to: '/payouts', labelKey: 'nav.payouts' },
    { to: '/approvals', labelKey: 'nav.approvals' },
    { to: '/reconciliation', labelKey: 'nav.reconciliation', permission: 'reports:read' },
    { to: '/developers', labelKey: 'nav.developers' },
    { to: '/activity', labelKey: 'nav.activity' },
  ],
  pages: [
    { index: true, element: <OverviewPage /> },
    { path: 'payins', element: <PayinsPage /> },
    { path: 'payins/:merchantTrxId', element: <PayinDetailPage /> },
    { path: 'payouts', element: <PayoutsPage /> },
    { path: 'payouts/batch', element: <BatchUploadPage /> },
    { path: 'payouts/:merchantTrxId', element: <PayoutDetailPage /> },
    { path: 'approvals', element: <ApprovalsPage /> },
    { path: 'reconciliation', element: <ReconPage /> },
    { path: 'developers', element: <DevelopersPage /> },
    { path: 'activity', element: <ActivityPage /> },
  ],
});
