import * as z from "zod/mini";
import { LineageSpecSchema } from "./lineage-spec.ts";
import { PiSpecSchema } from "./pi-spec.ts";
import { FaultRuleSchema } from "./fault-schema.ts";

export const PROFILES = ["2.3.0", "2.4.0", "2.5.0"] as const;
export const ProfileSchema = z.enum(PROFILES);
export type Profile = z.infer<typeof ProfileSchema>;

/** A simulator scenario: the single source of truth for the scenario file format. */
export const ScenarioSchema = z.strictObject({
  $schema: z.optional(z.string()),
  name: z._default(z.string().check(z.minLength(1)), "scenario"),
  description: z.optional(z.string()),
  profile: z._default(ProfileSchema, "2.4.0"),
  identities: z._default(z.enum(["prefixed", "bare"]), "prefixed"),
  lineage: z.prefault(LineageSpecSchema, {}),
  pi: z.prefault(PiSpecSchema, {}),
  faults: z._default(z.array(FaultRuleSchema), []),
});
export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioSchema>;
