import * as z from "zod/mini";
const S = z.object({ profile: z.enum(["2.3.0","2.4.0"]), x: z.optional(z.array(z.string())) });
S.parse({ profile: "2.4.0" });
process.stdout.write("hello\n");
