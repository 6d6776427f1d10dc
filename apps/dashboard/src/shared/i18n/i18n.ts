import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { id } from './id';

export type Language = 'en' | 'id';
const STORAGE_KEY = 'pay.dashboard.language';

function storedLanguage(): Language {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'id' ? 'id' : 'en';
  } catch {
    return 'en';
  }
}

export function initI18n(): typeof i18n {
  const lng = storedLanguage();
  void i18n.use(initReactI18next).init({
    resources: { en: { translation: en }, id: { translation: id } },
    lng,
    fallbackLng: 'en',
    interpolation: { escapeValue: false }, // React escapes
    initAsync: false,
  });
  document.documentElement.lang = lng;
  return i18n;
}

/** Switch language, remember it, and keep <html lang> right for screen readers. */
export function setLanguage(lng: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, lng);
  } catch {
    // private mode: the choice lasts for this page only
  }
  document.documentElement.lang = lng;
  void i18n.changeLanguage(lng);
}
