import { loadHostedModule } from "./conformance/host/load-module.ts";
await loadHostedModule("/tmp/jt-c.ts");
const m = await loadHostedModule("/work/main/test/conformance/runner/hostile-relays/hangs-in-pi.ts");
