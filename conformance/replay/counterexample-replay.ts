import { PROPERTIES } from "../clauses/byte-exactness.ts";
import { CounterexampleSchema, COUNTEREXAMPLE_SCHEMA_ID } from "../clauses/counterexample-schema.ts";
import { withPropertyRunner } from "../runner/run-catalogue.ts";
import { parseCount, parseOptions, resolveRelayPath } from "../cli/options.ts";
import { ClauseFailure, HarnessError } from "../clauses/types.ts";
import { UsageError } from "../cli/command.ts";
import { schemaIssueText } from "../cli/json-file.ts";
import { QUIET_REPLAY_OPTION, type ReplayHandler } from "./replay-handler.ts";
import type { OptionTable } from "../cli/options.ts";

const OPTIONS = {
  relay: {
    type: "string",
    valueName: "module",
    description: "counterexamples: the relay under test (default the saved one)",
  },
  "timeout-ms": {
    type: "string",
    valueName: "n",
    description: "counterexamples: bound on the relay call",
    default: "20000",
  },
  quiet: QUIET_REPLAY_OPTION,
} as const satisfies OptionTable;

/** Replays one saved property counterexample against its relay (or --relay). */
export const counterexampleReplay: ReplayHandler = {
  schemas: [COUNTEREXAMPLE_SCHEMA_ID],
  describe: "property counterexample (saved by a failing PROP-* clause)",
  options: OPTIONS,
  async replay(file, data, args, io) {
    const parsed = CounterexampleSchema.safeParse(data);
    if (!parsed.success)
      throw new UsageError(`${file}: not a counterexample: ${schemaIssueText(CounterexampleSchema, data)}`);
    const cx = parsed.data;
    const { values } = parseOptions(args, OPTIONS);
    const relay = values.relay !== undefined ? resolveRelayPath(io.cwd, values.relay) : cx.relay;
    const property = PROPERTIES.find((p) => p.id === cx.property);
    if (!property)
      throw new UsageError(
        `${file}: $.property: unknown property ${JSON.stringify(cx.property)} (known: ${PROPERTIES.map((p) => p.id).join(", ")})`,
      );
    try {
      await withPropertyRunner(
        {
          relayModule: relay,
          timeoutMs: parseCount("timeout-ms", values["timeout-ms"], 20_000, 1),
          runs: 1,
          seed: cx.seed,
          profile: cx.profile,
        },
        (runner) => property.replay(cx.value, runner),
      );
      if (!values.quiet)
        io.stdout(
          `PASS  ${cx.clause} (${cx.property}) on ${cx.profile}: counterexample no longer fails against ${relay}\n`,
        );
      return 0;
    } catch (error) {
      if (error instanceof HarnessError) {
        io.stdout(`ERROR ${cx.clause} (${cx.property}) on ${cx.profile}: harness error: ${error.message}\n`);
        return 3;
      }
      if (!(error instanceof ClauseFailure)) throw error;
      io.stdout(`FAIL  ${cx.clause} (${cx.property}) on ${cx.profile}: ${error.message}\n`);
      return 1;
    }
  },
};
