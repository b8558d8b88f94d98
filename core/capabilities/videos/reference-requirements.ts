import { REFERENCE_KINDS, type Reference, type ReferenceKind } from "../../contracts/media-input.js";
import type { VideoConstraints } from "../../catalog/video-models.js";
import type { VideoRequirement } from "./requirements.js";

function acceptedKinds(c: VideoConstraints): ReferenceKind[] {
  return REFERENCE_KINDS.filter((kind) => c.references.max_per_kind[kind] > 0);
}

// Every supplied reference must be usable as given: its kind accepted, its kind's count and the total within
// the model's limits, and its reference_voice used. A model that would drop one is refused, never chosen.
export function referenceRequirements(references: readonly Reference[] | undefined): VideoRequirement[] {
  if (!references || references.length === 0) return [];
  const requirements: VideoRequirement[] = [];
  for (const kind of REFERENCE_KINDS) {
    const first = references.findIndex((r) => r.kind === kind);
    if (first < 0) continue;
    const count = references.filter((r) => r.kind === kind).length;
    requirements.push({
      param: `/references/${first}/kind`,
      check: (m) =>
        m.constraints.references.max_per_kind[kind] > 0
          ? null
          : {
              code: "unsupported_reference_kind",
              message: `${kind} references are not accepted`,
              received: kind,
              supported: acceptedKinds(m.constraints),
            },
    });
    requirements.push({
      param: "/references",
      check: (m) => {
        const max = m.constraints.references.max_per_kind[kind];
        return max === 0 || count <= max
          ? null
          : {
              code: "unsupported_reference_count",
              message: `${count} ${kind} references exceed the model's ${max}`,
              received: { kind, count },
              supported: { kind, max },
            };
      },
    });
  }
  requirements.push({
    param: "/references",
    check: (m) => {
      const max = m.constraints.references.max_total;
      return references.length <= max
        ? null
        : {
            code: "unsupported_reference_count",
            message: `${references.length} references exceed the model's ${max}`,
            received: references.length,
            supported: max,
          };
    },
  });
  const withVoice = references.findIndex((r) => r.reference_voice !== undefined);
  if (withVoice >= 0) {
    requirements.push({
      param: `/references/${withVoice}/reference_voice`,
      check: (m) =>
        m.constraints.references.reference_voice
          ? null
          : { code: "unsupported_reference_voice", message: "reference_voice is not used", received: true, supported: false },
    });
  }
  return requirements;
}
