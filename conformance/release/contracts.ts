// `release <tag> --contracts`: fetch the tag's source tarball, check it against the tagged commit, and run the
// fidelity check on its contracts/ tree in a temp folder that is always removed.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ContractsTreeError } from "../fidelity/contracts-tree.ts";
import { checkFidelity, type FidelityOptions } from "../fidelity/fidelity.ts";
import type { FidelityReport } from "../fidelity/report-schema.ts";
import { downloadSourceTarball, GENTLE_AI_REPO, type GithubOptions } from "./github.ts";
import type { SourceProvenance } from "./report-schema.ts";
import { contractsBlobs, resolveTagCommit } from "./source.ts";
import { verifySourceTarball, writeContracts } from "./source-tarball.ts";

/** A tag's verified contracts/ files and where they came from. */
export interface ReleaseContracts {
  readonly source: SourceProvenance;
  readonly files: ReadonlyMap<string, Buffer>;
}

/**
 * Resolves the tag to its commit, lists the commit's contracts/ blobs, downloads `/tarball/<commit>` (by commit, so
 * a tag moved in between cannot swap the tree) and verifies it; nothing is written to disk.
 */
export async function fetchReleaseContracts(tag: string, options: GithubOptions = {}): Promise<ReleaseContracts> {
  const tagged = await resolveTagCommit(tag, options);
  const { tree, blobs } = await contractsBlobs(tagged.commit, options);
  const tarball = await downloadSourceTarball(tagged.commit, options);
  const verified = verifySourceTarball(tarball, tagged.commit, blobs);
  return {
    source: {
      repo: options.repo ?? GENTLE_AI_REPO,
      tag,
      tagObject: tagged.tagObject,
      commit: tagged.commit,
      tree,
      tarballSha256: verified.tarballSha256,
      topFolder: verified.topFolder,
      contractsFiles: verified.files.size,
    },
    files: verified.files,
  };
}

/**
 * Writes the verified files to a fresh temp folder, runs the fidelity check on it and removes the folder whatever
 * happens; the report names the commit's tree instead of the vanished folder.
 */
export async function checkReleaseContracts(
  contracts: ReleaseContracts,
  options: Omit<FidelityOptions, "contracts"> = {},
): Promise<FidelityReport> {
  const dir = await mkdtemp(join(tmpdir(), "relay-conformance-contracts-"));
  const label = `${contracts.source.repo}@${contracts.source.commit}:contracts`;
  try {
    await writeContracts(contracts.files, dir);
    const report = await checkFidelity({ ...options, contracts: dir });
    return { ...report, contracts: `${label}/review-integration` };
  } catch (error) {
    // A bad tree (no schemas, a schema that does not parse) names the folder, which is about to vanish.
    if (error instanceof ContractsTreeError) throw new ContractsTreeError(error.message.replaceAll(dir, label));
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
