import { lazy } from 'react';
import { Navigate } from 'react-router';
import { mountApp } from '../shared/app-root';

const MerchantsPage = lazy(() => import('./pages/merchants.page'));
const MerchantDetailPage = lazy(() => import('./pages/merchant-detail.page'));
const UsersPage = lazy(() => import('./pages/users.page'));
const SettlementsPage = lazy(() => import('./pages/settlements.page'));
const DeadLettersPage = lazy(() => import('./pages/dead-letters.page'));
const DeliveriesPage = lazy(() => import('./pages/deliveries.page'));
const AuditLogPage = lazy(() => import('./pages/audit-log.page'));
const LedgerPage = lazy(() => import('./pages/ledger.page'));
const AdjustmentsPage = lazy(() => import('./pages/adjustments.page'));
const ReconciliationPage = lazy(() => import('./pages/reconciliation.page'));

mountApp({
  apiBase: '/console/api',
  titleKey: 'app.consoleTitle',
  nav: [
    { to: '/merchants', labelKey: 'nav.merchants' },
    { to: '/users', labelKey: 'nav.users' },
    { to: '/settlements', labelKey: 'nav.settlements' },
    { to: '/dead-letters', labelKey: 'nav.deadLetters' },
    { to: '/webhook-deliveries', labelKey: 'nav.webhookDeliveries' },
    { to: '/ledger', labelKey: 'nav.ledger' },
    { to: '/adjustments', labelKey: 'nav.adjustments' },
    { to: '/reconciliation', labelKey: 'nav.reconciliation' },
    { to: '/audit-log', labelKey: 'nav.auditLog' },
  ],
  pages: [
    { index: true, element: <Navigate to="/merchants" replace /> },
    { path: 'merchants', element: <MerchantsPage /> },
    { path: 'merchants/:merchantId', element: <MerchantDetailPage /> },
    { path: 'users', element: <UsersPage /> },
    { path: 'settlements', element: <SettlementsPage /> },
    { path: 'dead-letters', element: <DeadLettersPage /> },
    { path: 'webhook-deliveries', element: <DeliveriesPage /> },
    { path: 'ledger', element: <LedgerPage /> },
    { path: 'adjustments', element: <AdjustmentsPage /> },
    { path: 'reconciliation', element: <ReconciliationPage /> },
    { path: 'audit-log', element: <AuditLogPage /> },
  ],
});
