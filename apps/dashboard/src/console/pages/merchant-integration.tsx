import { Alert, Button, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { ApiScopeName } from '@pay/contracts/dashboard';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRupiah } from '../../shared/format/format';
import { AllowlistSection, CallbackUrlSection } from '../../shared/credentials/settings.section';
import { TokensSection } from '../../shared/credentials/tokens.section';
import { WebhookSection } from '../../shared/credentials/webhook.section';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { Section } from '../../shared/ui/section';
import { ErrorState, LoadingState, fieldError } from '../../shared/ui/states';
import { useAsync } from '../../shared/ui/use-async';
import type { Merchant, RateLimits } from '../console.api';
import { useConsoleApi } from '../use-console-api';
import { SettingsForm } from './settings-form';

type Num = number | string;
const RATE_FIELDS = ['read', 'write', 'export'] as const;

/** Every scope a token may be issued with (the keys of a record of the contract's union: none can be missing). */
const SCOPE_SET: Record<ApiScopeName, true> = {
  'balance:read': true,
  'payins:read': true,
  'payins:write': true,
  'payouts:read': true,
  'payouts:write': true,
  'payouts:approve': true,
  'refunds:write': true,
  'reports:read': true,
};
const TOKEN_SCOPES = Object.keys(SCOPE_SET);

/** An empty field is the gateway's default (null); anything else is sent as typed, for the server to judge. */
const limitOf = (v: Num): number | null => (typeof v === 'number' ? v : v.trim() === '' ? null : Number(v));

/** The merchant's own rate limits; an emptied field goes back to the gateway's default. */
function RateLimitsForm({ merchant, onSaved }: { merchant: Merchant; onSaved(): void }) {
  const { t } = useTranslation();
  const api = useConsoleApi();
  const [values, setValues] = useState<Record<keyof RateLimits, Num>>({
    read: merchant.rateLimits.read ?? '',
    write: merchant.rateLimits.write ?? '',
    export: merchant.rateLimits.export ?? '',
  });
  return (
    <SettingsForm
      title={t('merchants.rateLimits')}
      submitLabel={t('merchants.saveRateLimits')}
      fields={[...RATE_FIELDS]}
      onSubmit={() =>
        api
          .saveRateLimits(merchant.id, {
            read: limitOf(values.read),
            write: limitOf(values.write),
            export: limitOf(values.export),
          })
          .then(onSaved)
      }
    >
      {(error) => (
        <>
          <Text>{t('merchants.rateLimitsIntro')}</Text>
          {RATE_FIELDS.map((field) => (
            <NumberInput
              key={field}
              label={t(`merchants.rateLimit.${field}`)}
              placeholder={t('merchants.rateLimitDefault')}
              min={1}
              max={100_000}
              allowDecimal={false}
              value={values[field]}
              onChange={(v) => setValues({ ...values, [field]: v })}
              error={fieldError(error, field)}
            />
          ))}
        </>
      )}
    </SettingsForm>
  );
}

/** Settles the merchant's pending now (what T+N would settle at its cut-off), once confirmed. */
function SettleNowSection({ merchant, onSettled }: { merchant: Merchant; onSettled(): void }) {
  const { t, i18n } = useTranslation();
  const api = useConsoleApi();
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  return (
    <Section title={t('merchants.settleNow')}>
      <Stack align="flex-start">
        <Text>{t('merchants.settleNowIntro', { pending: formatRupiah(merchant.pending) })}</Text>
        <Button variant="outline" onClick={() => setConfirming(true)}>
          {t('merchants.settleNow')}
        </Button>
        {outcome && (
          <Alert color="teal" role="status" py="xs">
            {outcome}
          </Alert>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('merchants.settleNowTitle', { name: merchant.name })}
        body={t('merchants.settleNowBody', { pending: formatRupiah(merchant.pending) })}
        confirmLabel={t('merchants.settleNowConfirm')}
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          setOutcome(null);
          const r = await api.settleNow(merchant.id);
          setOutcome(
            r.requested
              ? t('merchants.settleRequested', {
                  count: r.payinCount,
                  time: formatDateTime(r.cutoffAt, i18n.language),
                })
              : t('merchants.nothingToSettle'),
          );
          onSettled();
        }}
      />
    </Section>
  );
}

/**
 * The merchant's integration, as the operator manages it: API tokens, the webhook secret, the
 * default pay-in callback URL, the IP allowlist, its rate limits, and settling now. The tokens,
 * secret, URL and allowlist are the merchant dashboard's own sections, acting through the console.
 */
export function MerchantIntegration({ merchant, onChanged }: { merchant: Merchant; onChanged(): void }) {
  const { t } = useTranslation();
  const api = useConsoleApi();
  const id = merchant.id;
  const tokens = useAsync(() => api.tokens(id), [api, id]);
  const actions = useMemo(
    () => ({
      createToken: (label: string, scopes?: string[]) => api.issueToken(id, label, scopes),
      revokeToken: (tokenId: string) => api.revokeToken(tokenId),
      revealWebhookSecret: () => api.webhookSecret(id),
      rotateWebhookSecret: () => api.rotateWebhookSecret(id),
      saveCallbackUrl: (url: string | null) => api.saveCallbackUrl(id, url),
      saveAllowlist: (enabled: boolean, entries: string[]) => api.saveAllowlist(id, enabled, entries),
    }),
    [api, id],
  );
  return (
    <Stack>
      {tokens.loading && !tokens.data && <LoadingState />}
      {tokens.error !== null && <ErrorState error={tokens.error} onRetry={tokens.reload} />}
      {tokens.data && (
        <TokensSection
          tokens={tokens.data}
          actions={actions}
          onChanged={tokens.reload}
          availableScopes={TOKEN_SCOPES}
        />
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <WebhookSection actions={actions} intro={t('merchants.webhookIntro')} />
        <CallbackUrlSection initial={merchant.callbackUrl} actions={actions} onSaved={onChanged} />
        <AllowlistSection
          initial={merchant.allowlist}
          actions={actions}
          intro={t('merchants.allowlistIntro')}
          onSaved={onChanged}
        />
        <RateLimitsForm merchant={merchant} onSaved={onChanged} />
        <SettleNowSection merchant={merchant} onSettled={onChanged} />
      </SimpleGrid>
    </Stack>
  );
}
