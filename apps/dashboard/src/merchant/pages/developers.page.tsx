import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCan, useSession } from '../../shared/session/session.context';
import { PageTitle } from '../../shared/ui/page-title';
import { ErrorState, LoadingState } from '../../shared/ui/states';
import { useAsync } from '../../shared/ui/use-async';
import { useMerchantApi } from '../use-merchant-api';
import { DeliveriesSection } from './developers/deliveries.section';
import { AllowlistSection, CallbackUrlSection } from '../../shared/credentials/settings.section';
import { TokensSection } from '../../shared/credentials/tokens.section';
import { TotpSection } from './developers/totp.section';
import { WebhookSection } from '../../shared/credentials/webhook.section';

export default function DevelopersPage() {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const session = useSession();
  const can = useCan();
  const { data, error, loading, reload } = useAsync(() => api.developers(), [api]);

  return (
    <Stack>
      <PageTitle>{t('developers.title')}</PageTitle>
      {loading && !data && <LoadingState />}
      {error !== null && <ErrorState error={error} onRetry={reload} />}
      {data && (
        <>
          <TokensSection
            tokens={data.tokens}
            actions={api}
            onChanged={reload}
            availableScopes={data.availableScopes}
            canManage={can('tokens:manage')}
          />
          {can('webhooks:manage') && <WebhookSection actions={api} />}
          {can('webhooks:manage') && <CallbackUrlSection initial={data.callbackUrl} actions={api} />}
          {can('settings:manage') && <AllowlistSection initial={data.allowlist} actions={api} />}
        </>
      )}
      <DeliveriesSection />
      <TotpSection enabled={session.user.totpEnabled} />
    </Stack>
  );
}
