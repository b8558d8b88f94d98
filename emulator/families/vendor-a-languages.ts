// The `language_boost` values of vendorA's T2A v2 and voice clone references (docs/providers/reference/
// vendorA-t2a-v2.json, vendorA-voice-clone.json), each with the language subtag this
// stand-in speaks it in. Kept here rather than read from the adapter, so a name the adapter gets wrong is refused.
const LANGUAGE_SUBTAGS: Readonly<Record<string, string>> = {
  Chinese: "zh", "Chinese,Yue": "yue", English: "en", Arabic: "ar", Russian: "ru", Spanish: "es", French: "fr",
  Portuguese: "pt", German: "de", Turkish: "tr", Dutch: "nl", Ukrainian: "uk", Vietnamese: "vi", Indonesian: "id",
  Japanese: "ja", Italian: "it", Korean: "ko", Thai: "th", Polish: "pl", Romanian: "ro", Greek: "el", Czech: "cs",
  Finnish: "fi", Hindi: "hi", Bulgarian: "bg", Danish: "da", Hebrew: "he", Malay: "ms", Persian: "fa", Slovak: "sk",
  Swedish: "sv", Croatian: "hr", Filipino: "fil", Hungarian: "hu", Norwegian: "no", Slovenian: "sl", Catalan: "ca",
  Nynorsk: "nn", Tamil: "ta", Afrikaans: "af",
};

const AUTO = "auto";

export const LANGUAGE_BOOST_VALUES: [string, ...string[]] = [AUTO, ...Object.keys(LANGUAGE_SUBTAGS)];

// The subtag to speak a `language_boost` value in; null for `auto`, which leaves the language to the text.
export function subtagOfLanguageBoost(name: string): string | null {
  return LANGUAGE_SUBTAGS[name] ?? null;
}
