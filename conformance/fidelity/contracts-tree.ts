// A gentle-ai tree's published review contract: finds contracts/review-integration under a checkout or an unpacked
// release, and compiles every JSON Schema in it (draft 2020-12; their relative $refs resolve through their $ids).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { AnySchemaObject, ErrorObject, ValidateFunction } from "ajv";
import type { SchemaIssue } from "./report-schema.ts";

/** A bad `--contracts` directory: the command prints this one line and exits 2. */
export class ContractsTreeError extends Error {
  override readonly name = "ContractsTreeError";
}

/** The compiled schemas of one tree. */
export interface ContractsTree {
  /** The `contracts/review-integration` folder. */
  readonly root: string;
  /** Paths (relative to root) of every schema file found. */
  readonly files: readonly string[];
  /** The schema file (relative to root) whose `schema` member is the constant `kind`, if the tree publishes one. */
  fileFor(kind: string): string | undefined;
  /** Validates a document against the schema at `file` (relative to root); undefined when the tree has no such file. */
  validate(file: string, document: unknown): readonly SchemaIssue[] | undefined;
}

const SUBDIR = join("contracts", "review-integration");

/** `<dir>` may be the checkout, its `contracts/`, or `contracts/review-integration` itself. */
function locate(dir: string): string {
  if (!existsSync(dir)) throw new ContractsTreeError(`${dir}: no such directory`);
  if (!statSync(dir).isDirectory()) throw new ContractsTreeError(`${dir}: not a directory`);
  for (const candidate of [join(dir, SUBDIR), join(dir, "review-integration"), dir]) {
    if (existsSync(join(candidate, "v1", "schemas")) || existsSync(join(candidate, "v2", "schemas"))) return candidate;
  }
  throw new ContractsTreeError(
    `${dir}: no ${SUBDIR}/v1/schemas or v2/schemas (expected a gentle-ai checkout or an unpacked source release)`,
  );
}

/** `$.a[0].b` from Ajv's JSON Pointer `/a/0/b`. */
function jsonPath(pointer: string): string {
  if (pointer === "") return "$";
  return (
    "$" +
    pointer
      .split("/")
      .slice(1)
      .map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"))
      .map((key) =>
        /^\d+$/.test(key) ? `[${key}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`,
      )
      .join("")
  );
}

function issueOf(error: ErrorObject): SchemaIssue {
  const params = error.params as Record<string, unknown>;
  const detail =
    typeof params.additionalProperty === "string"
      ? ` (${JSON.stringify(params.additionalProperty)})`
      : Array.isArray(params.allowedValues)
        ? ` (${params.allowedValues.map((v) => JSON.stringify(v)).join("|")})`
        : params.allowedValue !== undefined
          ? ` (${JSON.stringify(params.allowedValue)})`
          : "";
  return { path: jsonPath(error.instancePath), message: `${error.message ?? error.keyword}${detail}` };
}

/** Loads and compiles every `*.json` under `<root>/v*\/schemas`; a schema that does not parse or compile is exit 2. */
export function loadContractsTree(dir: string): ContractsTree {
  const root = locate(dir);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const idOf = new Map<string, string>();
  const fileOf = new Map<string, string>();
  const files: string[] = [];
  for (const version of readdirSync(root)
    .filter((d) => /^v\d+$/.test(d))
    .sort()) {
    const schemas = join(root, version, "schemas");
    if (!existsSync(schemas)) continue;
    for (const name of readdirSync(schemas)
      .filter((n) => n.endsWith(".json"))
      .sort()) {
      const file = join(schemas, name);
      let schema: AnySchemaObject & { properties?: { schema?: { const?: unknown } } };
      try {
        schema = JSON.parse(readFileSync(file, "utf8")) as typeof schema;
      } catch (error) {
        throw new ContractsTreeError(`${file}: not JSON: ${(error as Error).message}`);
      }
      if (typeof schema.$id !== "string")
        throw new ContractsTreeError(`${file}: $id: missing (every published schema names itself)`);
      ajv.addSchema(schema);
      const rel = relative(root, file).split("\\").join("/");
      idOf.set(rel, schema.$id);
      files.push(rel);
      const kind = schema.properties?.schema?.const;
      if (typeof kind === "string" && !fileOf.has(kind)) fileOf.set(kind, rel);
    }
  }
  if (files.length === 0) throw new ContractsTreeError(`${root}: no schema files`);
  const compiled = new Map<string, ValidateFunction>();
  return {
    root,
    files,
    fileFor: (kind) => fileOf.get(kind),
    validate(file, document) {
      const id = idOf.get(file);
      if (id === undefined) return undefined;
      let validator = compiled.get(file);
      if (validator === undefined) {
        try {
          validator = ajv.getSchema(id);
        } catch (error) {
          throw new ContractsTreeError(`${join(root, file)}: does not compile: ${(error as Error).message}`);
        }
        if (validator === undefined) throw new ContractsTreeError(`${join(root, file)}: does not compile`);
        compiled.set(file, validator);
      }
      return validator(document) ? [] : (validator.errors ?? []).map(issueOf);
    },
  };
}
