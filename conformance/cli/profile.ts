import { UsageError } from "./command.ts";
import { PROFILES, type Profile } from "../../simulator/scenario/schema.ts";

export { PROFILES, type Profile };

const VERSION_LINE = /^gentle-ai (\S+)\r?\n?$/;

/** The `<Version>` of `gentle-ai version` stdout, or undefined when the output is not that one line. */
export function parseVersionOutput(stdout: string): string | undefined {
  return VERSION_LINE.exec(stdout)?.[1];
}

/**
 * The contract profile a version reports (provider reference §14): every build up to rc.1 is pre-relay ("2.3.0"),
 * 2.4.x (main builds included) is "2.4.0", 2.5 and later "2.5.0". `dev` and anything unparseable give undefined.
 */
export function profileOfVersion(version: string): Profile | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-(.+))?$/.exec(version);
  if (m === null) return undefined;
  const [major, minor, , pre] = [Number(m[1]), Number(m[2]), Number(m[3]), m[4]];
  if (major !== 2) return major > 2 ? "2.5.0" : "2.3.0";
  if (minor < 4) return "2.3.0";
  if (minor === 4) return pre !== undefined && /^rc\./.test(pre) ? "2.3.0" : "2.4.0";
  return "2.5.0";
}

/** Narrows a `--profile` value. */
export function isProfile(value: string): value is Profile {
  return (PROFILES as readonly string[]).includes(value);
}

/** A `--profile` value, checked before anything runs; undefined when the flag is absent. */
export function profileOption(flag: string | undefined): Profile | undefined {
  if (flag !== undefined && !isProfile(flag))
    throw new UsageError(`--profile: unknown profile ${JSON.stringify(flag)} (expected ${PROFILES.join(", ")})`);
  return flag;
}

/** The profile a binary's `gentle-ai version` output names, or bad input asking for --profile. */
export function profileOfVersionOutput(version: string): Profile {
  const derived = profileOfVersion(parseVersionOutput(`${version}\n`) ?? "");
  if (derived === undefined)
    throw new UsageError(`--profile is needed: \`version\` printed ${JSON.stringify(version)}, which names no profile`);
  return derived;
}
