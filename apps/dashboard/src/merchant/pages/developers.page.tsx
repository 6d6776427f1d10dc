import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../shared/session/session.context';
import { PageTitle } from '../../shared/ui/page-title';
import { ErrorState, LoadingState } from '../../shared/ui/states';
import { useAsync } from '../../shared/ui/use-async';
import { useMerchantApi } from '../use-merchant-api';
import { DeliveriesSection } from './developers/deliveries.section';
import { AllowlistSection, CallbackUrlSection } from './developers/settings.section';
import { TokensSection } from './developers/tokens.section';
import { TotpSection } from './developers/totp.section';
import { WebhookSection } from './developers/webhook.section';

export default function DevelopersPage() {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const session = useSession();
  const { data, error, loading, reload } = useAsync(() => api.developers(), [api]);

  return (
    <Stack>
      <PageTitle>{t('developers.title')}</PageTitle>
      {loading && !data && <LoadingState />}
      {error !== null && <ErrorState error={error} onRetry={reload} />}
      {data && (
        <>
          <TokensSection tokens={data.tokens} onChanged={reload} />
          <WebhookSection />
          <CallbackUrlSection initial={data.callbackUrl} />
          <AllowlistSection initial={data.allowlist} />
        </>
      )}
      <DeliveriesSection />
      <TotpSection enabled={session.user.totpEnabled} />
    </Stack>
  );
}
