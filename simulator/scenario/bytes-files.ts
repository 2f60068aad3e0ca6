import type { Scenario } from "./schema.ts";
import type { BytesSpec } from "./bytes-spec.ts";

export type FileBytesSpec = Extract<BytesSpec, { file: string }>;

/** Every `file` bytes spec in a scenario with its JSON path (they must exist when the scenario loads). */
export function bytesFiles(scenario: Scenario): Array<[string, FileBytesSpec]> {
  const out: Array<[string, FileBytesSpec]> = [];
  const visit = (where: string, spec: BytesSpec | undefined): void => {
    if (spec && "file" in spec) out.push([where, spec]);
  };
  if (scenario.pi.result.kind === "bytes") visit("$.pi.result.bytes", scenario.pi.result.bytes);
  visit("$.pi.stderr", scenario.pi.stderr);
  scenario.faults.forEach((rule, i) => {
    if (rule.fault.kind === "stdout" || rule.fault.kind === "stderr")
      visit(`$.faults[${i}].fault.bytes`, rule.fault.bytes);
  });
  return out;
}
