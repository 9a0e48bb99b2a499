import i18n from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";
import { catalogues, namespaces } from "./catalogues";

/** The languages the app is translated into; the first is the fallback. */
export const languages = ["en", "zh-CN"] as const;
export type Language = (typeof languages)[number];

/** Where the user's explicit choice is remembered; absent means "follow the browser". */
export const languageKey = "knowspace.lang";

// Called once before the first render; tests call it too so components
// render real strings rather than keys.
export function setupI18n(lng?: Language) {
  if (i18n.isInitialized) {
    if (lng && i18n.language !== lng) void i18n.changeLanguage(lng);
    return i18n;
  }
  void i18n
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources: catalogues,
      ns: namespaces,
      defaultNS: "common",
      lng,
      fallbackLng: "en",
      supportedLngs: [...languages],
      // "zh" and "zh-Hans-CN" from the browser both mean our zh-CN.
      nonExplicitSupportedLngs: false,
      load: "currentOnly",
      interpolation: { escapeValue: false }, // React escapes
      detection: {
        order: ["localStorage", "navigator"],
        lookupLocalStorage: languageKey,
        caches: [],
        convertDetectedLanguage: normalizeLanguage,
      },
      returnNull: false,
      initAsync: false,
    });
  const syncHtml = (l: string) => document.documentElement.setAttribute("lang", l);
  syncHtml(i18n.language);
  i18n.on("languageChanged", syncHtml);
  return i18n;
}

/** normalizeLanguage maps a browser tag to one we ship: any Chinese to zh-CN, anything else to en. */
export function normalizeLanguage(tag: string): Language {
  return /^zh\b/i.test(tag) ? "zh-CN" : "en";
}

/** chooseLanguage switches now and remembers the choice; null goes back to following the browser. */
export function chooseLanguage(lng: Language | null) {
  if (lng) localStorage.setItem(languageKey, lng);
  else localStorage.removeItem(languageKey);
  void i18n.changeLanguage(lng ?? normalizeLanguage(navigator.language));
}

/** currentLanguage is the language strings are shown in, for Intl formatters. */
export function currentLanguage(): Language {
  return normalizeLanguage(i18n.language || "en");
}

export default i18n;
