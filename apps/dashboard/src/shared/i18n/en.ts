// English: the default language, and the accessible names the browser test uses (decision 0023).
export const en = {
  app: { merchantTitle: 'Merchant dashboard', consoleTitle: 'Operator console', skipToContent: 'Skip to content', mainNav: 'Main navigation', openNav: 'Open navigation', signedInAs: 'Signed in as {{email}}', sandbox: 'Sandbox' },
  lang: { switchTo: 'Bahasa Indonesia' },
  common: {
    loading: 'Loading…', retry: 'Try again', loadMore: 'Load more', cancel: 'Cancel', close: 'Close', save: 'Save', copy: 'Copy', copied: 'Copied',
    empty: 'Nothing here yet.', errorTitle: 'Something went wrong', notFound: 'Page not found', backHome: 'Back to the start',
    status: 'Status', all: 'All', from: 'From', to: 'To', apply: 'Apply', yes: 'Yes', no: 'No', active: 'Active', inactive: 'Inactive',
    shownOnce: 'Shown only once: copy it now.', create: 'Create', backToList: 'Back to the list', saved: 'Saved.', createdAt: 'Created', actions: 'Actions', amount: 'Amount', none: 'None',
  },
  status: { pending: 'Pending', success: 'Success', failed: 'Failed', expired: 'Expired', processing: 'Processing', ready: 'Ready', running: 'Running', queued: 'Queued', delivered: 'Delivered', dead: 'Dead', active: 'Active', inactive: 'Inactive', open: 'Open', replayed: 'Replayed', resolved: 'Resolved', delivering: 'Delivering', retry: 'Retrying' },
  errors: {
    SIGN_IN_FAILED: 'Email or password is wrong.',
    TOTP_REQUIRED: 'Enter the code from your authenticator app.',
    ACCOUNT_LOCKED: 'This account is locked after too many failed attempts. Try again in {{minutes}} minutes.',
    ACCOUNT_LOCKED_NO_TIME: 'This account is locked after too many failed attempts. Try again later.',
    SESSION_REQUIRED: 'Your session has ended. Please sign in again.',
    REAUTH_REQUIRED: 'Confirm your password to continue.',
    REAUTH_FAILED: 'The password or code is wrong.',
    REAUTH_CONFIRMED: 'Password confirmed. Enter a new code from your authenticator app and try again.',
    REAUTH_CANCELLED: 'Cancelled; nothing was changed.',
    RATE_LIMITED: 'Too many requests for your account right now (your API integration shares this limit). Wait a moment and try again.',
    CSRF_TOKEN_INVALID: 'Your session has changed. Reload the page and try again.',
    SETUP_LINK_INVALID: 'This link is invalid, used or expired. Ask your administrator for a new one.',
    NETWORK_ERROR: 'The server cannot be reached. Check your connection.',
    VALIDATION_ERROR: 'Please check the highlighted fields.',
    passwordTooShort: 'At least 12 characters.',
    passwordTooLong: 'At most 128 characters.',
    passwordsDiffer: 'The passwords do not match.',
    required: 'Required.',
  },
  auth: {
    signInTitle: 'Sign in', email: 'Email', password: 'Password', totp: 'Authentication code', totpHint: 'The 6-digit code from your authenticator app', signIn: 'Sign in', signOut: 'Sign out',
    setPasswordTitle: 'Set your password', newPassword: 'New password', confirmPassword: 'Confirm password', setPassword: 'Set password', passwordHint: '12 to 128 characters',
    passwordSet: 'Your password is set. You can sign in now.', goToSignIn: 'Go to sign in',
  },
  reauth: { title: 'Confirm your password', intro: 'For your security, enter your password again before this change.', confirm: 'Confirm' },
  nav: { overview: 'Overview', payins: 'Pay-ins', payouts: 'Payouts', reconciliation: 'Reconciliation', developers: 'Developers', activity: 'Activity', merchants: 'Merchants', users: 'Users', settlements: 'Settlements', deadLetters: 'Dead letters', webhookDeliveries: 'Webhook deliveries', auditLog: 'Audit log' },
  overview: {
    title: 'Overview', available: 'Available balance', pending: 'Pending balance', todayPayins: "Today's pay-ins", todayPayouts: "Today's payouts", count_one: '{{count}} transaction', count_other: '{{count}} transactions',
    chartTitle: 'Last 30 days', chartLabel: 'Pay-ins and payouts per day over the last 30 days', payins: 'Pay-ins', payouts: 'Payouts', day: 'Day',
  },
  payins: {
    title: 'Pay-ins', tableLabel: 'Pay-ins', search: 'Search by merchant transaction ID', createQr: 'Create QR', createTitle: 'Create a QRIS code', amount: 'Amount', merchantTrxId: 'Merchant transaction ID', merchantTrxIdHint: 'Optional: one is made for you when empty', create: 'Create',
    platformTrxId: 'Platform transaction ID', fee: 'Fee', net: 'Net amount', createdAt: 'Created', paidAt: 'Paid at', expiresAt: 'Expires at', empty: 'No pay-ins match.',
    detailTitle: 'Pay-in {{id}}', qrAlt: 'QRIS code', qrGone: 'The QR code is no longer payable.', simulate: 'Simulate payment', simulated: 'Payment simulated.', rrn: 'RRN', nmid: 'NMID',
  },
  payouts: {
    title: 'Payouts', tableLabel: 'Payouts', search: 'Search by merchant transaction ID', empty: 'No payouts match.', merchantTrxId: 'Merchant transaction ID', account: 'Account', bank: 'Bank', total: 'Total', fee: 'Fee', createdAt: 'Created', successAt: 'Completed at',
    detailTitle: 'Payout {{id}}', attempts: 'Callback attempts', attemptTime: 'Time', httpStatus: 'HTTP status', latency: 'Latency', latencyMs: '{{ms}} ms', response: 'Response', noAttempts: 'No callback attempts yet.', resend: 'Resend callback', resent: 'The callback is queued again.', noResponse: 'No response',
  },
  recon: { title: 'Reconciliation', intro: 'Export the transactions of one day (Asia/Jakarta) as a file.', date: 'Date', export: 'Export', preparing: 'Preparing the file…', download: 'Download', failed: 'The export failed.', stale: 'A transaction of that day changed after the file was made. Export the day again.', job: 'Job {{id}}' },
  developers: {
    title: 'Developers', tokens: 'API tokens', tokensLabel: 'API tokens', tokenLabel: 'Token label', createToken: 'Create token', newToken: 'Your new token', label: 'Label', created: 'Created', revoked: 'Revoked', revoke: 'Revoke', revokeTitle: 'Revoke this token?', revokeBody: 'Calls made with "{{label}}" will be refused at once. This cannot be undone.', revokeToken: 'Revoke token', noTokens: 'No tokens yet.',
    webhook: 'Webhook signing secret', webhookIntro: 'Callbacks are signed with this secret. Rotating it makes a new one at once.', rotate: 'Rotate webhook secret', newSecret: 'Your new webhook secret',
    callbackUrl: 'Callback URL', callbackUrlHint: 'Default pay-in callback URL; leave empty to clear', saveCallbackUrl: 'Save callback URL',
    allowlist: 'IP allowlist', allowlistIntro: 'When on, API tokens work only from these addresses. It does not apply to this dashboard.', allowlistEnabled: 'Allow API calls only from listed addresses', allowlistEntries: 'Allowed addresses', allowlistHint: 'One IP address or CIDR range per line', saveAllowlist: 'Save allowlist',
    deliveries: 'Recent callback deliveries', deliveriesLabel: 'Recent callback deliveries', kind: 'Kind', url: 'URL', attempts: 'Attempts', lastStatus: 'Last HTTP status', noDeliveries: 'No callbacks sent yet.', kinds: { payout: 'Payout', payin: 'Pay-in' }, lastUsed: 'Last used',
    totp: 'Two-factor authentication', totpOn: 'Two-factor authentication is on.', totpOff: 'Two-factor authentication is off.', totpStart: 'Set up two-factor authentication', totpScan: 'Scan this code with your authenticator app, or enter the secret by hand.', totpQrAlt: 'Authenticator QR code', totpSecret: 'Secret', totpCode: 'Code from the app', totpConfirm: 'Turn on', totpEnabled: 'Two-factor authentication is on.', totpDisable: 'Turn off two-factor authentication', totpDisabled: 'Two-factor authentication is off.',
  },
  merchants: {
    title: 'Merchants', tableLabel: 'Merchants', name: 'Name', id: 'ID', balance: 'Available balance', pending: 'Pending balance', state: 'State', activate: 'Activate', deactivate: 'Deactivate', create: 'Create merchant', createTitle: 'Create a merchant', empty: 'No merchants yet.',
    created: 'Merchant created', token: 'API token', webhookSecret: 'Webhook secret', details: 'Details', detailTitle: 'Merchant {{name}}',
    fees: 'Fees', payinFeePercent: 'Pay-in fee (%)', payinFeeFixed: 'Pay-in fee, fixed (Rp)', payoutFee: 'Payout fee (Rp)', saveFees: 'Save fees',
    qris: 'QRIS identity', nmid: 'NMID', criteria: 'Merchant criteria (UMI, UKE, UME, UBE, URE)', city: 'City', postalCode: 'Postal code', mcc: 'Merchant category code', saveQris: 'Save QRIS identity',
    schedule: 'Settlement schedule', scheduleNow: 'Now: {{value}}', scheduleDelayDays: 'Delay in days (T+N)', scheduleHour: 'Hour (Asia/Jakarta, 0 to 23)', saveSchedule: 'Save schedule', merchantNameLabel: 'Merchant name', callbackUrl: 'Pay-in callback URL', users: 'Dashboard users',
    inviteUser: 'Invite user', inviteEmail: 'User email', invite: 'Send invite', inviteLink: 'Set-password link', inviteLinkHint: 'Give this link to the user; it works once, for 72 hours.',
  },
  users: {
    title: 'Users', tableLabel: 'Dashboard and console users', email: 'Email', role: 'Role', merchant: 'Merchant', totp: 'TOTP on', lockedUntil: 'Locked until', disabled: 'Disabled',
    disable: 'Disable', enable: 'Enable', disableTitle: 'Disable {{email}}?', disableBody: 'The user is signed out everywhere at once and cannot sign in until enabled again.',
    enableTitle: 'Enable {{email}}?', enableBody: 'The user can sign in again with its password.', roles: { merchant: 'Merchant', operator: 'Operator' }, empty: 'No users yet.', disabledDone: '{{email}} is disabled and signed out everywhere.', enabledDone: '{{email}} can sign in again.',
  },
  settlements: { title: 'Settlements', tableLabel: 'Settlements', merchant: 'Merchant', gross: 'Gross', fees: 'Fees', amount: 'Credited (net)', count: 'Pay-ins', cutoffAt: 'Cut-off', createdAt: 'Created', empty: 'No settlements yet.' },
  deadLetters: { title: 'Dead letters', tableLabel: 'Dead letters', topic: 'Topic', reason: 'Reason', createdAt: 'Created', replay: 'Replay', replayConfirm: 'Replay message', replayTitle: 'Replay this message?', replayBody: 'The message {{id}} is sent again to {{topic}}.', replayed: 'Replayed.', empty: 'No dead letters.', replayedAt: 'Replayed at' },
  deliveries: { title: 'Webhook deliveries', tableLabel: 'Webhook deliveries', merchant: 'Merchant', kind: 'Kind', reference: 'Reference', url: 'URL', attempts: 'Attempts', lastStatus: 'Last HTTP status', state: 'State', resend: 'Resend', resent: 'Queued again.', empty: 'No deliveries.' },
  activity: {
    title: 'Activity', intro: 'What the users of this dashboard did: changes, sign-ins and sign-outs, newest first.', tableLabel: 'Activity', time: 'Time', user: 'User', action: 'Action', target: 'Target', empty: 'No activity recorded yet.',
    actions: {
      token_create: 'Created an API token', token_revoke: 'Revoked an API token', webhook_secret_rotate: 'Rotated the webhook secret', callback_url_set: 'Changed the callback URL', allowlist_set: 'Changed the IP allowlist',
      totp_setup: 'Started two-factor set-up', totp_enable: 'Turned two-factor authentication on', totp_disable: 'Turned two-factor authentication off',
      payin_create: 'Created a QR code', payin_simulate: 'Simulated a payment', payout_callback_resend: 'Resent a payout callback', recon_export: 'Exported a reconciliation file',
      session_sign_in: 'Signed in', session_sign_in_failed: 'Sign-in refused', session_sign_out: 'Signed out',
    },
  },
  audit: { title: 'Audit log', tableLabel: 'Audit log', time: 'Time', operator: 'Operator', action: 'Action', target: 'Target', details: 'Details', logId: 'Log ID', empty: 'No actions recorded yet.' },
};

/** Every language has every key (the type checker holds the translations to it). */
type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
export type Resources = Shape<typeof en>;
