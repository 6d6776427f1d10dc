import { Alert, Button, Group, Loader, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import type { ReconFileType } from '@pay/contracts/dashboard';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { jakartaToday } from '../../shared/format/format';
import { PageTitle } from '../../shared/ui/page-title';
import { ErrorState, FormError, fieldError } from '../../shared/ui/states';
import type { ReconJob } from '../merchant.api';
import { useMerchantApi } from '../use-merchant-api';

const POLL_MS = 1500;
const FILE_TYPES: readonly ReconFileType[] = ['payins', 'payouts', 'movements'];

export default function ReconPage() {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const [date, setDate] = useState(jakartaToday());
  const [type, setType] = useState<ReconFileType>('payins');
  const [job, setJob] = useState<ReconJob | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [pollError, setPollError] = useState<unknown>(null);

  // Poll the job until the file is ready (or failed).
  useEffect(() => {
    if (!job || job.state !== 'running') return;
    const timer = setTimeout(() => {
      api.reconJob(job.jobId).then(setJob, setPollError);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [api, job]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setPollError(null);
    setJob(null);
    try {
      setJob(await api.exportRecon(date, type));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack maw={560}>
      <PageTitle>{t('recon.title')}</PageTitle>
      <Text>{t('recon.intro')}</Text>
      <form onSubmit={submit} noValidate>
        <Group align="flex-end">
          <TextInput
            label={t('recon.date')}
            type="date"
            required
            value={date}
            max={jakartaToday()}
            onChange={(e) => setDate(e.currentTarget.value)}
            error={fieldError(error, 'date')}
          />
          <NativeSelect
            label={t('recon.file')}
            value={type}
            onChange={(e) => setType(e.currentTarget.value as ReconFileType)}
            data={FILE_TYPES.map((value) => ({ value, label: t(`recon.types.${value}`) }))}
          />
          <Button type="submit" loading={busy}>
            {t('recon.export')}
          </Button>
        </Group>
      </form>
      <FormError error={error} fields={['date']} />
      {job?.state === 'running' && !pollError && (
        <Group gap="sm" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Text>{t('recon.preparing')}</Text>
        </Group>
      )}
      {pollError !== null && (
        <ErrorState
          error={pollError}
          onRetry={() => {
            setPollError(null);
            if (job) setJob({ ...job });
          }}
        />
      )}
      {job?.state === 'stale' && (
        <Alert color="blue" role="status">
          {t('recon.stale')}
        </Alert>
      )}
      {job?.state === 'failed' && (
        <Alert color="red" role="alert">
          {t('recon.failed')}
        </Alert>
      )}
      {job?.state === 'ready' && job.downloadUrl && (
        <Group role="status">
          <Button component="a" href={job.downloadUrl} download>
            {t('recon.download')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
