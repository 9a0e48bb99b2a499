// Language and colour theme, both remembered in this browser.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { chooseLanguage, languageKey } from "../i18n";
import type { Language } from "../i18n";
import { chooseTheme, storedTheme, themes } from "./theme";
import type { Theme } from "./theme";

type LanguageChoice = "system" | Language;

function storedLanguage(): LanguageChoice {
  const v = localStorage.getItem(languageKey);
  return v === "en" || v === "zh-CN" ? v : "system";
}

export function AppearanceSection() {
  const { t } = useTranslation("settings");
  const [lang, setLang] = useState<LanguageChoice>(storedLanguage);
  const [theme, setTheme] = useState<Theme>(storedTheme);
  const languageChoices: { id: LanguageChoice; label: string }[] = [
    { id: "system", label: t("appearance.system") },
    // Each language is named in itself, so it can be found whatever the UI shows.
    { id: "en", label: "English" },
    { id: "zh-CN", label: "简体中文" },
  ];
  const themeLabels: Record<Theme, string> = {
    system: t("appearance.system"),
    light: t("appearance.light"),
    dark: t("appearance.dark"),
  };
  return (
    <section className="page-section" aria-labelledby="appearance-h">
      <h2 id="appearance-h">{t("appearance.heading")}</h2>
      <fieldset className="choice-group">
        <legend>{t("appearance.language")}</legend>
        {languageChoices.map((c) => (
          <label key={c.id}>
            <input
              type="radio"
              name="language"
              value={c.id}
              checked={lang === c.id}
              onChange={() => {
                setLang(c.id);
                chooseLanguage(c.id === "system" ? null : c.id);
              }}
            />
            <span lang={c.id === "system" ? undefined : c.id}>{c.label}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="choice-group">
        <legend>{t("appearance.theme")}</legend>
        {themes.map((id) => (
          <label key={id}>
            <input
              type="radio"
              name="theme"
              value={id}
              checked={theme === id}
              onChange={() => {
                setTheme(id);
                chooseTheme(id);
              }}
            />
            <span>{themeLabels[id]}</span>
          </label>
        ))}
      </fieldset>
      <p className="muted small">{t("appearance.remembered")}</p>
    </section>
  );
}
