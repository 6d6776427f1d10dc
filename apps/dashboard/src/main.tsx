// One entry, two bundles: Vite replaces import.meta.env.MODE at build time, so each bundle
// carries only its own app (the other branch is dropped).
if (import.meta.env.MODE === 'console') {
  void import('./console/console.app');
} else {
  void import('./merchant/merchant.app');
}
