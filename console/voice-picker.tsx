import type { FieldControlProps } from "./schema-form";
import type { Voice } from "./types";
import { VoiceSample } from "./voice-sample";

// The voice of a speech request, chosen from the preset and cloned voices (with language and gender), and heard
// before it is used.

interface VoicePickerProps extends FieldControlProps {
  voices: Voice[];
  value: unknown;
  onChange(voiceId: string | undefined): void;
}

const describe = (voice: Voice) => [voice.name, voice.language, voice.gender, voice.status === "active" ? null : voice.status].filter(Boolean).join(" · ");

export function VoicePicker({ id, describedBy, invalid, voices, value, onChange }: VoicePickerProps) {
  const chosen = voices.find((v) => v.voice_id === value);
  const group = (type: Voice["type"], label: string) => {
    const members = voices.filter((v) => v.type === type);
    return (
      members.length > 0 && (
        <optgroup label={label}>
          {members.map((v) => (
            <option value={v.voice_id}>{describe(v)}</option>
          ))}
        </optgroup>
      )
    );
  };
  return (
    <>
      {/* Keyed by the list's length: a select drawn before its options arrive is drawn again with them, so the
          chosen voice shows (a select keeps no value it has no option for). */}
      <select key={voices.length} id={id} aria-describedby={describedBy} aria-invalid={invalid} value={typeof value === "string" ? value : ""} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value || undefined)}>
        <option value="">Choose a voice…</option>
        {group("preset", "Preset voices")}
        {group("cloned", "Your cloned voices")}
      </select>
      {chosen && <VoiceSample voice={chosen} />}
    </>
  );
}
