// vendorA's `language_boost` takes language names, not BCP-47 tags (docs/providers/vendorA.md): one per
// primary subtag the speech models list, and `auto` when the request names no language.
const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  zh: "Chinese", yue: "Chinese,Yue", en: "English", es: "Spanish", fr: "French", ru: "Russian", de: "German",
  pt: "Portuguese", ar: "Arabic", it: "Italian", ja: "Japanese", ko: "Korean", id: "Indonesian", vi: "Vietnamese",
  fa: "Persian", sv: "Swedish", fil: "Filipino", no: "Norwegian", ca: "Catalan", ta: "Tamil", tr: "Turkish",
  nl: "Dutch", uk: "Ukrainian", th: "Thai", pl: "Polish", ro: "Romanian", el: "Greek", cs: "Czech", fi: "Finnish",
  hi: "Hindi", bg: "Bulgarian", da: "Danish", he: "Hebrew", ms: "Malay", sk: "Slovak", hr: "Croatian",
  hu: "Hungarian", sl: "Slovenian", nn: "Nynorsk", af: "Afrikaans",
};

export const LANGUAGE_BOOST_AUTO = "auto";

export function languageBoostOf(primarySubtag: string | null): string {
  return (primarySubtag && LANGUAGE_NAMES[primarySubtag]) ?? LANGUAGE_BOOST_AUTO;
}

// The primary subtag a `language_boost` value names, or null for `auto` and names we do not list.
export function subtagOfLanguageBoost(name: string): string | null {
  return Object.entries(LANGUAGE_NAMES).find(([, listed]) => listed === name)?.[0] ?? null;
}

export const LANGUAGE_BOOST_VALUES: readonly string[] = [...Object.values(LANGUAGE_NAMES), LANGUAGE_BOOST_AUTO];
