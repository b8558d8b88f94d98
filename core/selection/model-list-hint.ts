// Where a caller finds the models a capability accepts, on both surfaces: said by every refusal of a `model`.
export function modelListHint(capabilityId: string): string {
  return `svc.models.list with capability "${capabilityId}" (REST: GET /v1/catalog/capabilities/${capabilityId}) lists the valid models; "auto" picks one`;
}
