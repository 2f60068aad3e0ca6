// Property clauses: generated inputs, each run a full relay call (conformance/properties/).
import { BYTES_PROPERTY, INVALID_FORM_PROPERTY, SUBMISSION_FORM_PROPERTY } from "./byte-exactness.ts";
import { ALL_PROFILES, RELAY_PROFILES } from "./common.ts";
import type { Clause } from "./types.ts";

export const PROPERTY_CLAUSES: readonly Clause[] = [
  {
    id: "PROP-SUBMIT-FORM-EXACT",
    statement:
      "For generated forms (unicode, spaces, =, quotes, shell metacharacters, leading dashes, several {{value}}, decoys, any location) submit argv = form with only its location token substituted; capture argv verbatim; handshake on gentle-ai legs only.",
    source: "gentle-pi 2.3.0; relay reference §10.3",
    profiles: RELAY_PROFILES,
    checks: [{ property: SUBMISSION_FORM_PROPERTY }],
  },
  {
    id: "PROP-BYTES-EXACT",
    statement:
      "For generated prompt and result bytes (BOM, CRLF, NUL, invalid UTF-8, up to 3 MiB) pi stdin = materialized bytes and the submitted file = pi stdout.",
    source: "gentle-pi 2.3.0; relay reference §7, §9, §10.2",
    profiles: RELAY_PROFILES,
    checks: [{ property: BYTES_PROPERTY }],
  },
  {
    id: "PROP-INVALID-FORM-NO-LAUNCH",
    statement:
      "Generated invalid forms fail submission-contract-mismatch with the first violated rule's message and launch nothing.",
    source: "gentle-pi 2.3.0; relay reference §10.1",
    profiles: ALL_PROFILES,
    checks: [{ property: INVALID_FORM_PROPERTY }],
  },
];
