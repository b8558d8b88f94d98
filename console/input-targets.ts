import { capabilityCard, capabilityList, capabilityTitle } from "./catalog";
import { isMediaInput, mediaKindOf, type JsonSchema } from "./schema";

// Where a result can go next: every capability with a media input of the result's kind (an image into image to
// video's `image` or image to image's `images`, a video into extend's `video`), read from the capabilities' input
// schemas, so a new capability is offered without the console knowing it.

export interface InputTarget {
  capability: string;
  title: string;
  field: string;
  // The field is a list (`images`): the result goes in as its first entry.
  list: boolean;
}

export async function inputTargets(kind: string): Promise<InputTarget[]> {
  const capabilities = await capabilityList();
  const cards = await Promise.all(capabilities.map((c) => capabilityCard(c.id)));
  return cards.flatMap((card) =>
    Object.entries((card.input_schema as JsonSchema).properties ?? {}).flatMap(([field, schema]) => {
      const list = schema.items !== undefined && isMediaInput(schema.items);
      if (!(isMediaInput(schema) || list) || mediaKindOf(field) !== kind) return [];
      return [{ capability: card.id, title: capabilityTitle(card), field, list }];
    }),
  );
}

// The body that starts the target's form: the artifact in its field.
export function targetBody(target: InputTarget, artifactId: string): Record<string, unknown> {
  const media = { type: "artifact", artifact_id: artifactId };
  return { [target.field]: target.list ? [media] : media };
}
