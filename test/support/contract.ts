// The handshake and contract id the simulator tests send, from the harness's one contract module.
import { CONTRACT_V2, HANDSHAKE_ENV, HANDSHAKE_VALUE, PI_ARGV } from "../../conformance/contract/provider.ts";

/**
 * The locked-down pi argv, from the judge's contract module: the relay's and the simulator's own copies are tested
 * against it, so a drift in either is caught.
 */
export const LOCKED_DOWN_PI_ARGV: readonly string[] = PI_ARGV;

/** The Pi handshake as environment variables, to spread into a run's `env`. */
export const HANDSHAKE: Readonly<Record<string, string>> = { [HANDSHAKE_ENV]: HANDSHAKE_VALUE };

/** The negotiated review-integration contract (v2). */
export const V2 = CONTRACT_V2;
