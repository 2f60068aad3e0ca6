// Lint: eslint recommended + typescript-eslint recommended, type-aware, so the rules that matter for process code
// (floating and misused promises) run over every TypeScript file. Formatting is Prettier's job, not ESLint's.
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

/** Node's globals for the few plain-JS files (TypeScript files get theirs from @types/node). */
const nodeGlobals = {
  process: "readonly",
  console: "readonly",
  URL: "readonly",
  Buffer: "readonly",
  setTimeout: "readonly",
  clearTimeout: "readonly",
};
const commonJsGlobals = {
  require: "readonly",
  module: "writable",
  exports: "writable",
  __dirname: "readonly",
  __filename: "readonly",
};
/** The extensionless bin scripts, by module kind (simulator/bin/package.json makes that folder CommonJS). */
const esmBins = ["conformance/bin/relay-conformance", "conformance/repro/bin/gentle-ai-handshake-tamper"];
const cjsBins = ["simulator/bin/gentle-ai", "simulator/bin/pi"];

export default defineConfig(
  {
    ignores: [
      "dist/",
      "node_modules/",
      "schemas/",
      "golden/",
      "coverage/",
      ".cache/",
      ".scratch/",
      ".sim-state/",
      ".relay-conformance/",
    ],
  },
  { files: ["**/*.{js,mjs,cjs,ts,mts}", ...esmBins, ...cjsBins] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // Regexes match column-aligned CLI output literally; spaces spelled out read as the output does.
      "no-regex-spaces": "off",
      // A leading underscore marks a deliberately unused binding (an omitted destructured key, a fixed-arity callback).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
        },
      ],
    },
  },
  {
    // Tests read parsed JSON documents loosely; "no any" is a rule for the public API, which tests are not.
    files: ["test/**", "**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Plain JS is outside tsconfig (no allowJs): there is no type information to lint it with.
    files: ["**/*.{js,mjs,cjs}", ...esmBins, ...cjsBins],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: nodeGlobals },
  },
  {
    // The bin launchers are CommonJS on purpose: a CJS start is the fast path the simulator's start-up budget relies
    // on.
    files: ["**/*.cjs", ...cjsBins],
    languageOptions: { sourceType: "commonjs", globals: { ...nodeGlobals, ...commonJsGlobals } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
