import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../i18n/i18n';

/** Names the other language, in that language: "Bahasa Indonesia" while English is on, "English" while Indonesian is. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const other = i18n.language === 'id' ? 'en' : 'id';
  return (
    <Button variant="subtle" size="compact-sm" lang={other} onClick={() => setLanguage(other)}>
      {t('lang.switchTo')}
    </Button>
  );
}
