import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ContractsTreeError, loadContractsTree } from "./contracts-tree.ts";

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A checkout with the given files under contracts/review-integration. */
function tree(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "contracts-tree-test-"));
  made.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, "contracts", "review-integration", rel);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  }
  return dir;
}

const BASE = "https://example.test/contracts/review-integration";
const FROZEN = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: `${BASE}/v1/schemas/frozen.schema.json`,
  type: "object",
  required: ["tier"],
  properties: { tier: { enum: ["low", "medium", "high"] } },
};
const STATUS = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: `${BASE}/v2/schemas/status-v5.schema.json`,
  type: "object",
  additionalProperties: false,
  required: ["schema", "frozen"],
  properties: {
    schema: { const: "gentle-ai.review-integration.status/v5" },
    frozen: { $ref: "../../v1/schemas/frozen.schema.json" },
    "odd key": { type: "array", items: { type: "string" } },
  },
};

describe("loadContractsTree", () => {
  it("finds the schema of a kind by its schema constant and resolves relative $refs across versions", () => {
    const t = loadContractsTree(
      tree({ "v1/schemas/frozen.schema.json": FROZEN, "v2/schemas/status-v5.schema.json": STATUS }),
    );
    expect(t.files).toEqual(["v1/schemas/frozen.schema.json", "v2/schemas/status-v5.schema.json"]);
    expect(t.fileFor("gentle-ai.review-integration.status/v5")).toBe("v2/schemas/status-v5.schema.json");
    expect(t.fileFor("gentle-ai.review-integration.status/v4")).toBeUndefined();
    expect(
      t.validate("v2/schemas/status-v5.schema.json", {
        schema: "gentle-ai.review-integration.status/v5",
        frozen: { tier: "low" },
      }),
    ).toEqual([]);
  });

  it("names each violation by its JSON path and reason", () => {
    const t = loadContractsTree(
      tree({ "v1/schemas/frozen.schema.json": FROZEN, "v2/schemas/status-v5.schema.json": STATUS }),
    );
    const issues = t.validate("v2/schemas/status-v5.schema.json", {
      schema: "gentle-ai.review-integration.status/v4",
      frozen: { tier: "large" },
      "odd key": ["a", 1],
      extra: true,
    });
    expect(issues).toEqual([
      { path: "$", message: `must NOT have additional properties ("extra")` },
      { path: "$.schema", message: `must be equal to constant ("gentle-ai.review-integration.status/v5")` },
      { path: "$.frozen.tier", message: `must be equal to one of the allowed values ("low"|"medium"|"high")` },
      { path: `$["odd key"][1]`, message: "must be string" },
    ]);
    expect(t.validate("v2/schemas/nope.schema.json", {})).toBeUndefined();
  });

  it("accepts the checkout, its contracts/ folder or contracts/review-integration itself", () => {
    const dir = tree({
      "v2/schemas/status-v5.schema.json": { ...STATUS, properties: { schema: STATUS.properties.schema }, required: [] },
    });
    for (const d of [dir, join(dir, "contracts"), join(dir, "contracts", "review-integration")])
      expect(loadContractsTree(d).root).toBe(join(dir, "contracts", "review-integration"));
  });

  it("refuses a bad directory with one line naming the path and the reason", () => {
    const empty = tree({});
    const file = join(empty, "plain-file");
    writeFileSync(file, "x");
    const cases: [string, string][] = [
      [join(empty, "missing"), `${join(empty, "missing")}: no such directory`],
      [file, `${file}: not a directory`],
      [
        empty,
        `${empty}: no contracts/review-integration/v1/schemas or v2/schemas (expected a gentle-ai checkout or an unpacked source release)`,
      ],
    ];
    for (const [dir, message] of cases) {
      expect(() => loadContractsTree(dir)).toThrow(ContractsTreeError);
      expect(() => loadContractsTree(dir)).toThrow(message);
    }
    const broken = tree({ "v2/schemas/a.schema.json": "{not json" });
    expect(() => loadContractsTree(broken)).toThrow(/v2\/schemas\/a\.schema\.json: not JSON: /);
    const anonymous = tree({ "v2/schemas/b.schema.json": { type: "object" } });
    expect(() => loadContractsTree(anonymous)).toThrow(/v2\/schemas\/b\.schema\.json: \$id: missing/);
  });
});
