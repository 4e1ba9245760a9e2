// The labelled questions of bench/search-quality.mjs, checked against the corpus: enough of
// them, each once, each answered by 1 to 3 pages that exist; and the questions no page
// answers (bench/corpus/search-none.json).
//   node --test bench/corpus/search-questions.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_CORPUS, readCorpus } from "./corpus.mjs";
import { ROOT } from "../../support/files.mjs";

const present = existsSync(DEFAULT_CORPUS);
if (!present) console.error(`\n!!! ${DEFAULT_CORPUS} is missing: the question-set test is SKIPPED !!!\n`);

test("the question set: enough questions, each answered by 1 to 3 corpus pages", { skip: !present && "corpus missing" }, async () => {
  const { questions } = JSON.parse(readFileSync(path.join(ROOT, "bench/corpus/search-questions.json"), "utf8"));
  assert.ok(questions.length >= 48, `${questions.length} questions`);
  assert.equal(new Set(questions.map((q) => q.question)).size, questions.length, "a question is repeated");
  const paths = new Set((await readCorpus(DEFAULT_CORPUS)).map((f) => `/${f.path}`));
  const kinds = new Set(["how-to", "troubleshooting", "configuration", "identifier", "concept", "vague"]);
  for (const q of questions) {
    assert.ok(kinds.has(q.kind), `${q.question}: kind ${q.kind}`);
    assert.ok(q.answers.length >= 1 && q.answers.length <= 3, q.question);
    assert.equal(new Set(q.answers).size, q.answers.length, q.question);
    for (const a of q.answers) assert.ok(paths.has(a), `${a} (for "${q.question}") is not a corpus page`);
  }
});

test("the questions no page answers: enough of them, each once, of the two kinds", () => {
  const { questions } = JSON.parse(readFileSync(path.join(ROOT, "bench/corpus/search-none.json"), "utf8"));
  assert.ok(questions.length >= 40, `${questions.length} questions`);
  assert.equal(new Set(questions.map((q) => q.question)).size, questions.length, "a question is repeated");
  for (const q of questions) assert.ok(["nonsense", "out-of-scope"].includes(q.kind), `${q.question}: kind ${q.kind}`);
});
