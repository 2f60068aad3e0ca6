// Hashes differ in value between the two sides whenever an input of theirs does (a clock, a toolchain, an inferred
// derivation), so they are compared by structure: each binary hash is paired with one simulator hash, one to one,
// for a whole scenario. A pairing is kept only from a field that matched, so one extra hash on one side never
// renumbers the calls after it.

/** Hex runs of 12 or more lower-case digits: sha256 digests, git object ids, lineage-id tails, rctx1_ handles. */
const HEX_SPLIT = /((?<![0-9a-f])[0-9a-f]{12,}(?![0-9a-f]))/;

/** Both sides of one field, hashes renamed: `<Hn>` by the binary's first appearance, the simulator's by its pair. */
export interface PairedField {
  readonly binary: Buffer;
  readonly simulator: Buffer;
}

/** One scenario's pairing of binary hashes with simulator hashes. */
export class HashPairing {
  readonly #toSim = new Map<string, string>();
  readonly #toBinary = new Map<string, string>();
  readonly #names = new Map<string, string>();
  #unpaired = 0;

  #name(hash: string): string {
    let name = this.#names.get(hash);
    if (name === undefined) {
      name = `<H${this.#names.size + 1}>`;
      this.#names.set(hash, name);
    }
    return name;
  }

  /** Renames both sides' hashes; pairs made at the same position are kept when the renamed sides are equal. */
  field(binary: Buffer, simulator: Buffer): PairedField {
    const a = binary.toString("latin1").split(HEX_SPLIT);
    const b = simulator.toString("latin1").split(HEX_SPLIT);
    const tentative = new Map<string, string>();
    const taken = new Set<string>();
    const renamedA = a.map((part, i) => (i % 2 === 1 ? this.#name(part) : part));
    const renamedB = b.map((part, i) => {
      if (i % 2 === 0) return part;
      const paired = this.#toBinary.get(part) ?? tentative.get(part);
      if (paired !== undefined) return this.#name(paired);
      const candidate = a[i];
      if (candidate !== undefined && !this.#toSim.has(candidate) && !taken.has(candidate)) {
        tentative.set(part, candidate);
        taken.add(candidate);
        return this.#name(candidate);
      }
      this.#unpaired += 1;
      return `<S${this.#unpaired}>`;
    });
    const out = {
      binary: Buffer.from(renamedA.join(""), "latin1"),
      simulator: Buffer.from(renamedB.join(""), "latin1"),
    };
    if (out.binary.equals(out.simulator)) {
      for (const [sim, bin] of tentative) {
        this.#toSim.set(bin, sim);
        this.#toBinary.set(sim, bin);
      }
    }
    return out;
  }
}
