// One correction-client call in a fresh Node process (`process=fresh`): reads a ClientJob on stdin,
// prints the flattened outcome as JSON on stdout.
import { createClient, runJob, type ClientJob } from "./steps/client.ts";

const chunks: Buffer[] = [];
for await (const c of process.stdin) chunks.push(c as Buffer);
const job = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ClientJob;
const client = await createClient(job.modulePath, job.context);
process.stdout.write(JSON.stringify(await runJob(client, job)));
