// What an emulated image vendor publishes about one of its models: the limits it refuses a request beyond.
export interface VendorImageModel {
  // The id the vendor's calls name the model by.
  id: string;
  // Exact numbers of images one request may ask for.
  counts: readonly number[];
  // Size tiers ("1K", "2K") and the named ratios each is rendered at.
  tiers: readonly string[];
  aspects: readonly string[];
  // Whether, given input images, the model also renders each tier at the ratio of the input image.
  sourceRatio: boolean;
  sequence: boolean;
  palette: boolean;
  seed: boolean;
  negativePrompt: boolean;
  maxInputImages: number;
  maxEditRegions: number;
}
