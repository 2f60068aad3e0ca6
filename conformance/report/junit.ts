import type { Report } from "./report-schema.ts";

// eslint-disable-next-line no-control-regex -- XML 1.0 cannot carry these control characters; matching them is the point.
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

const escape = (s: string): string =>
  s
    .replace(XML_FORBIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

/** JUnit XML: one testsuite per profile, one testcase per applicable clause. */
export function junitXml(report: Report): string {
  const suites = report.profiles.map((profile) => {
    const cases = report.clauses.flatMap((c) => {
      const r = c.profiles.find((p) => p.profile === profile);
      if (!r) return [];
      const body =
        r.status === "fail"
          ? `<failure message="${escape(r.message.slice(0, 1000))}">${escape(r.message)}</failure>`
          : r.status === "error"
            ? `<error message="${escape(r.message.slice(0, 1000))}">${escape(r.message)}</error>`
            : r.status === "skip"
              ? `<skipped message="${escape(r.message)}"/>`
              : "";
      return [`    <testcase classname="relay-conformance.${profile}" name="${escape(c.id)}">${body}</testcase>`];
    });
    const failures = report.clauses.filter((c) =>
      c.profiles.some((p) => p.profile === profile && p.status === "fail"),
    ).length;
    const skipped = report.clauses.filter((c) =>
      c.profiles.some((p) => p.profile === profile && p.status === "skip"),
    ).length;
    const errors = report.clauses.filter((c) =>
      c.profiles.some((p) => p.profile === profile && p.status === "error"),
    ).length;
    return `  <testsuite name="gentle-ai ${profile}" tests="${cases.length}" failures="${failures}" skipped="${skipped}" errors="${errors}">\n${cases.join("\n")}\n  </testsuite>`;
  });
  const { passed, failed, skipped, errored } = report.summary;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="relay-conformance" tests="${passed + failed + skipped + errored}" failures="${failed}" errors="${errored}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join("\n")}\n</testsuites>\n`;
}
