import type { FamilyIds } from "../family-ids.js";

// Read from Alibaba Cloud Model Studio's Wan 2.7 video and image references and the DashScope SDK
// (docs/providers/vendorC.md, vendorC-image.md). vendorC3.0-video and -prime have no Wan model in those references:
// they are not mapped and still send our own ids.
export const VENDOR_C_IDS: FamilyIds = {
  mapped: ["vendorC2.7-t2v", "vendorC2.7-i2v", "vendorC2.7-r2v", "vendorC2.7-videoedit", "vendorC2.7-image-pro", "vendorC2.7-image"],
  defaults: {
    models: {
      "vendorC2.7-t2v": "wan2.7-t2v",
      "vendorC2.7-i2v": "wan2.7-i2v",
      "vendorC2.7-r2v": "wan2.7-r2v",
      "vendorC2.7-videoedit": "wan2.7-videoedit",
      "vendorC2.7-image-pro": "wan2.7-image-pro",
      "vendorC2.7-image": "wan2.7-image",
    },
    voices: {},
  },
};
