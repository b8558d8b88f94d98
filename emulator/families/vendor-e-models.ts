// The Imagen models the emulated Vertex AI serves (docs/providers/vendorE.md), each with the service's catalog
// model whose limits it keeps, so that the emulator renders exactly what the service promises (the emulator keeps
// its own list of the vendor's ids, issue 15).

const IMAGEN_MODELS: Readonly<Record<string, string>> = {
  "imagen-4.0-ultra-generate-001": "vendorE-image-2.5-flare",
  "imagen-3.0-capability-001": "vendorE-image-2.5-sunburst",
  "imagen-4.0-generate-001": "vendorE-image-2",
};

export function emulatedImageModel(imagenId: string): string | undefined {
  return IMAGEN_MODELS[imagenId];
}
