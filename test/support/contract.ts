// The handshake and contract id the simulator tests send, from the harness's one contract module.
import { CONTRACT_V2, HANDSHAKE_ENV, HANDSHAKE_VALUE } from "../../conformance/contract/provider.ts";

/** The Pi handshake as environment variables, to spread into a run's `env`. */
export const HANDSHAKE: Readonly<Record<string, string>> = { [HANDSHAKE_ENV]: HANDSHAKE_VALUE };

/** The negotiated review-integration contract (v2). */
export const V2 = CONTRACT_V2;
