// Seeds the collection the runtime smoke test reads (run with Node).
import { ingest } from "chromafs";
await ingest({ url: process.argv[2], collection: "smoke", files: [{ path: "index.md", content: "# Home\nwelcome to the docs\n" }, { path: "guides/auth.md", content: "send the token header\n" }] });
