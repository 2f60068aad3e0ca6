/** sha256 (hex) over the path and bytes of every input of simulator/scenario/load.ts's bundle; `read` is for tests. */
export function scenarioValidatorDigest(root: string, read?: (path: string) => Buffer): Promise<string>;
