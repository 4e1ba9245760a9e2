// CommonJS consumer view: `require("chromafs")` resolves through the "require" condition.
import chromafs = require("chromafs");
import type { IFileSystem, CustomCommand } from "just-bash";

type IsAny<T> = 0 extends 1 & T ? true : false;
const notAny: IsAny<chromafs.ChromaFs["stats"]> = false;

async function main(): Promise<void> {
  const fs: chromafs.ChromaFs = await chromafs.ChromaFs.connect({ url: "http://127.0.0.1:8000", collection: "docs", groups: ["eng"] });
  const asFs: IFileSystem = fs;
  const commands: CustomCommand[] = fs.commands();
  const summary: chromafs.IngestSummary = await chromafs.ingest({ url: "u", collection: "c", files: [] });
  const line: string = chromafs.bashErrorLine("boom");
  const service: chromafs.ServiceEmbedder = chromafs.openAiEmbedder({ model: "m", apiKeyEnv: "K" });
  void service;
  // @ts-expect-error collection is required
  await chromafs.ChromaFs.connect({ url: "u" });
  void asFs, commands, summary, line;
}

void main, notAny;
