import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A list's "Download CSV": a plain link the browser downloads (the session cookie goes with it). */
export function DownloadCsv({ href }: { href: string }) {
  const { t } = useTranslation();
  return (
    <Button component="a" href={href} download variant="default" title={t('common.downloadCsvHint')}>
      {t('common.downloadCsv')}
    </Button>
  );
}
