// The shapes chromafs shares with just-bash's IFileSystem: the same names, structurally
// compatible, so that a ChromaFs is a just-bash filesystem without a shared import.

/** Encodings `readFile` accepts; `binary`/`latin1` give one char per byte. */
export type BufferEncoding = "utf8" | "utf-8" | "ascii" | "binary" | "base64" | "hex" | "latin1";

/** What the (rejected) write methods take, as just-bash passes it. */
export type FileContent = string | Uint8Array;

/** What a page states it is (`pageHeadings`): front matter `title:` (else its first heading) and `description:`. */
export interface PageHeading {
  title: string | null;
  description: string | null;
}

export interface ReadFileOptions {
  /** Defaults to UTF-8 (a leading BOM dropped, invalid bytes replaced, like TextDecoder). */
  encoding?: BufferEncoding | null;
}

export interface WriteFileOptions {
  encoding?: BufferEncoding;
}

export interface MkdirOptions {
  recursive?: boolean;
}

export interface RmOptions {
  recursive?: boolean;
  force?: boolean;
}

export interface CpOptions {
  recursive?: boolean;
}

/** What `stat` and `lstat` resolve to. */
export interface FsStat {
  isFile: boolean;
  isDirectory: boolean;
  /** The filesystem has no symlinks. */
  isSymbolicLink: false;
  mode: number;
  /** Page size in bytes; from the path tree when it records one, so `ls -l` reads no page. */
  size: number;
  /** From the path tree; the epoch when the tree records none. */
  mtime: Date;
  dev: number;
  ino: number;
}

/** What `readdirWithFileTypes` resolves to, one per visible child. */
export interface DirentEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: false;
}
