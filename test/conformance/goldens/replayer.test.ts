// The simulator's replayer mode (GENTLE_AI_SIM_REPLAY, simulator/runtime/replay.ts): each call answered from the
// golden's call at its position in the conversation, run through the simulator's one call path (planCall).
import { afterEach, describe, expect, it } from "vitest";
import { runSim, SimWorld } from "../../support/sim-world.ts";

let world: SimWorld;
afterEach(() => world?.cleanup());

const b64 = (text: string): { base64: string } => ({ base64: Buffer.from(text).toString("base64") });

/** A golden holding only what the replayer reads: its calls. */
function golden(calls: readonly unknown[]): string {
  return world.file("g.golden.json", JSON.stringify({ calls }));
}

describe("replayer mode", () => {
  it("answers with the recorded bytes (placeholders reversed) and exit; records stdin and files handed by path", async () => {
    world = new SimWorld();
    const result = world.file("result.json", "{}\n");
    const path = golden([
      {
        program: "gentle-ai",
        stdout: b64("in <CWD>\n"),
        stderr: b64("tmp <TMP>\n"),
        exit: { code: 3, signal: null, completed: true },
      },
      {
        program: "pi",
        nested: true,
        stdout: b64("never"),
        stderr: b64(""),
        exit: { code: 0, signal: null, completed: true },
      },
      { program: "pi", stdout: b64("second"), stderr: b64(""), exit: { code: 0, signal: null, completed: true } },
    ]);
    const env = world.env({ GENTLE_AI_SIM_REPLAY: path, GENTLE_AI_SIM_REPLAY_CWD: "/repo" });
    const first = await runSim("gentle-ai", ["review", "capture-result", `--input=${result}`], {
      env,
      input: Buffer.from("sent"),
      cwd: world.dir,
    });
    expect([first.stdout.toString(), first.stderr.toString(), first.code]).toEqual([
      "in /repo\n",
      `tmp ${world.dir}\n`,
      3,
    ]);
    // A nested call is not replayed: the next pi call gets the call after it.
    const second = await runSim("pi", ["--print"], { env, cwd: world.dir });
    expect([second.stdout.toString(), second.code]).toEqual(["second", 0]);
    const [e1, e2] = world.entries();
    expect([e1?.program, e1?.argv, Buffer.from(e1?.stdin.base64 ?? "", "base64").toString(), e1?.exit]).toEqual([
      "gentle-ai",
      ["review", "capture-result", `--input=${result}`],
      "sent",
      { code: 3, signal: null, completed: true },
    ]);
    expect(e1?.files.map((f) => [f.path, Buffer.from(f.base64 ?? "", "base64").toString()])).toEqual([
      [result, "{}\n"],
    ]);
    expect([e2?.program, e2?.cwdListing !== undefined, e2?.exit]).toEqual([
      "pi",
      true,
      { code: 0, signal: null, completed: true },
    ]);
  });

  it("a call the golden does not have, or of the other program, exits 125 with the reason", async () => {
    world = new SimWorld();
    const path = golden([
      { program: "pi", stdout: b64("x"), stderr: b64(""), exit: { code: 0, signal: null, completed: true } },
    ]);
    const env = world.env({ GENTLE_AI_SIM_REPLAY: path });
    const wrong = await runSim("gentle-ai", ["version"], { env, cwd: world.dir });
    expect([wrong.stdout.toString(), wrong.stderr.toString(), wrong.code]).toEqual([
      "",
      "gentle-ai-sim: replay: call 0 is gentle-ai but the golden recorded pi\n",
      125,
    ]);
    const beyond = await runSim("pi", [], { env, cwd: world.dir });
    expect([beyond.stderr.toString(), beyond.code]).toEqual([
      "gentle-ai-sim: replay: call 1 is beyond the golden's 1 replayable calls\n",
      125,
    ]);
    expect(world.entries().map((e) => e.exit)).toEqual([
      { code: 125, signal: null, completed: true },
      { code: 125, signal: null, completed: true },
    ]);
  });

  it("a recorded hang writes its transcript line and all its output, then hangs until killed", async () => {
    world = new SimWorld();
    const path = golden([
      {
        program: "pi",
        stdout: b64("partial"),
        stderr: b64("err"),
        exit: { code: null, signal: null, completed: false },
      },
    ]);
    const env = world.env({ GENTLE_AI_SIM_REPLAY: path });
    const hung = await runSim("pi", [], { env, cwd: world.dir, killAfterStdoutBytes: 7 });
    expect([hung.stdout.toString(), hung.signal]).toEqual(["partial", "SIGKILL"]);
    expect(world.entries().map((e) => e.exit)).toEqual([{ code: null, signal: null, completed: false }]);
  });

  it("a recorded signal ends the process with that signal", async () => {
    world = new SimWorld();
    // (completed: false would hang first, as a recorded hang does.)
    const path = golden([
      { program: "pi", stdout: b64("out"), stderr: b64(""), exit: { code: null, signal: "SIGTERM", completed: true } },
    ]);
    const r = await runSim("pi", [], { env: world.env({ GENTLE_AI_SIM_REPLAY: path }), cwd: world.dir });
    expect([r.stdout.toString(), r.code, r.signal]).toEqual(["out", null, "SIGTERM"]);
  });
});
