// Every provider document kind the simulator prints, with its published schema and our zod mirror.
import type { ProviderDocument } from "./provider-document.ts";

/** All mirrored document kinds. */
export const PROVIDER_DOCUMENTS: readonly ProviderDocument[] = [];

const BY_ID = new Map(PROVIDER_DOCUMENTS.map((d) => [d.id, d]));

/** The mirrored kind with this `schema` identifier (or descriptive name), if any. */
export function providerDocument(id: string): ProviderDocument | undefined {
  return BY_ID.get(id);
}
