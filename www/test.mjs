// End-to-end test of the demo page: a real Chroma with the project's docs ingested,
// server.mjs in front of it, and headless Chromium typing into the page.
//   node --test test.mjs        (after npm ci and node build.mjs; run-test.sh does all three)
// Environment:
//   CHROMAFS_TEST_URL     use this Chroma instead of starting one with ../scripts/chroma.sh
//   CHROMAFS_SCREENSHOTS  directory for the screenshots (default: a new temporary directory)
//   UPDATE_SCREENSHOT=1   also rewrite screenshot.png, the picture the README shows
//   CHROMIUM              browser binary (default /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile, mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { ingest } from "chromafs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..");
const docsDir = join(repo, "docs");

const INTERNAL_PAGES = ["roadmap.md", "pricing-notes.md", "chroma-outage.md"];
const SCREEN_DESKTOP = { width: 1280, height: 800 };
const SCREEN_PHONE = { width: 390, height: 844 };

const ctx = {
  chromaUrl: "",
  chromaPort: 0, // set when this test started Chroma itself
  chromaData: "",
  collection: "",
  server: null,
  pageUrl: "",
  browser: null,
  page: null,
  shots: "",
  consoleErrors: [],
  consoleAll: [],
  wasmResponses: [],
};

// ---------------------------------------------------------------------------------------
// Set-up and tear-down

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** The docs as ingest wants them: paths relative to the docs folder, bytes, mtimes. */
async function readDocs(dir, rel = "") {
  const out = [];
  const entries = await readdir(join(dir, rel), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await readDocs(dir, path)));
    else if (entry.isFile()) {
      const full = join(dir, path);
      const [bytes, info] = await Promise.all([readFile(full), stat(full)]);
      out.push({
        path,
        content: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        mtime: Math.floor(info.mtimeMs),
      });
    }
  }
  return out;
}

/** Starts server.mjs on a free port; resolves with the URL it prints. */
function startPageServer(chromaUrl, collection) {
  const child = spawn(
    process.execPath,
    [join(here, "server.mjs"), "--port", "0", "--host", "127.0.0.1", "--chroma", chromaUrl, "--collection", collection],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`server.mjs printed no URL in 15 s: ${out}${err}`)), 15_000);
    child.stderr.on("data", (d) => (err += d));
    child.stdout.on("data", (d) => {
      out += d;
      const m = /^chromafs demo page: (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server.mjs exited with ${code}: ${out}${err}`));
    });
  });
}

before(async () => {
  await stat(join(here, "dist", "app.js")).catch(() => {
    throw new Error("dist/app.js is missing: run node build.mjs first");
  });

  if (process.env.CHROMAFS_TEST_URL) {
    ctx.chromaUrl = process.env.CHROMAFS_TEST_URL.replace(/\/+$/, "");
    ctx.collection = `www-test-${process.pid}-${Date.now().toString(36)}`;
  } else {
    ctx.chromaPort = await freePort();
    ctx.chromaData = await mkdtemp(join(tmpdir(), "chromafs-www-chroma-"));
    const r = spawnSync("bash", [join(repo, "scripts", "chroma.sh"), "start", String(ctx.chromaPort), ctx.chromaData], {
      stdio: ["ignore", "inherit", "inherit"],
      timeout: 300_000,
    });
    if (r.status !== 0) throw new Error(`scripts/chroma.sh start ${ctx.chromaPort} failed (${r.status ?? r.signal})`);
    ctx.chromaUrl = `http://127.0.0.1:${ctx.chromaPort}`;
    ctx.collection = "chromafs-docs"; // the demo's name; this Chroma is the test's own
  }

  const access = await readFile(join(repo, "docs-access.json"), "utf8");
  const files = await readDocs(docsDir);
  // As the demo ingests them: embedded with the built-in model, which the page's searches
  // reach through the server's POST /embed.
  const { createEmbedder } = await import("chromafs/embed");
  const summary = await ingest({ url: ctx.chromaUrl, collection: ctx.collection, files, access, embed: await createEmbedder() });
  assert.equal(summary.pages, files.length);
  assert.equal(summary.restrictedPages, INTERNAL_PAGES.length);
  ctx.pages = files.length;

  const { child, url } = await startPageServer(ctx.chromaUrl, ctx.collection);
  ctx.server = child;
  ctx.pageUrl = url;

  ctx.shots = process.env.CHROMAFS_SCREENSHOTS || (await mkdtemp(join(tmpdir(), "chromafs-www-shots-")));
  await mkdir(ctx.shots, { recursive: true });

  ctx.browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const context = await ctx.browser.newContext({ viewport: SCREEN_DESKTOP, deviceScaleFactor: 1 });
  ctx.page = await context.newPage();
  ctx.page.setDefaultTimeout(20_000);
  ctx.page.on("console", (msg) => {
    ctx.consoleAll.push(`${msg.type()}: ${msg.text()}`);
    if (msg.type() === "error") ctx.consoleErrors.push(msg.text());
  });
  ctx.page.on("pageerror", (error) => ctx.consoleErrors.push(`pageerror: ${error.message}`));
  ctx.page.on("response", (response) => {
    if (response.url().endsWith(".wasm")) ctx.wasmResponses.push(response);
  });
});

after(async () => {
  await ctx.browser?.close().catch(() => {});
  if (ctx.server && ctx.server.exitCode === null) {
    const exited = new Promise((resolve) => ctx.server.once("exit", resolve));
    ctx.server.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
    if (ctx.server.exitCode === null) ctx.server.kill("SIGKILL");
  }
  if (ctx.chromaPort) {
    spawnSync("bash", [join(repo, "scripts", "chroma.sh"), "stop", String(ctx.chromaPort)], { stdio: "inherit" });
    await rm(ctx.chromaData, { recursive: true, force: true });
  } else if (ctx.chromaUrl) {
    // A shared Chroma: leave it as it was.
    await fetch(
      `${ctx.chromaUrl}/api/v2/tenants/default_tenant/databases/default_database/collections/${ctx.collection}`,
      { method: "DELETE" },
    ).catch(() => {});
  }
  if (ctx.shots) console.log(`# screenshots in ${ctx.shots}`);
});

// ---------------------------------------------------------------------------------------
// Driving the page

/** Types a command, presses Enter, waits for its entry; returns what the page shows. */
async function run(command) {
  const { page } = ctx;
  const count = await page.locator("#scrollback > .entry").count();
  await page.locator("#input").fill(command);
  await page.locator("#input").press("Enter");
  await page.waitForFunction(
    (n) => {
      const entries = document.querySelectorAll("#scrollback > .entry");
      return entries.length > n && entries[entries.length - 1].dataset.state === "done";
    },
    count,
  );
  return lastEntry();
}

async function lastEntry() {
  return ctx.page.evaluate(() => {
    const entry = [...document.querySelectorAll("#scrollback > .entry")].at(-1);
    const text = (sel) => entry.querySelector(sel)?.textContent ?? "";
    return {
      command: text(".cmd"),
      prompt: text(".cmdline .prompt"),
      stdout: text(".stdout"),
      stderr: text(".stderr"),
      exitCode: Number(entry.dataset.exit),
      requests: Number(entry.dataset.requests),
      plan: entry.dataset.plan ?? "",
      meta: text(".meta"),
    };
  });
}

async function switchTo(role) {
  const { page } = ctx;
  await page.locator(`#groups label:has(input[value="${role}"])`).click();
  await page.waitForFunction((r) => document.body.dataset.role === r && !document.querySelector("#groups").disabled, role);
  const line = await page.locator("#scrollback > .sys").last().textContent();
  assert.match(line, new RegExp(`^connected as ${role}\\b`));
  return line;
}

const lines = (text) => text.split("\n").filter(Boolean);

// ---------------------------------------------------------------------------------------
// The page server

test("server: the page, the bundle and the wasm with the right types, config and the proxy", async () => {
  const get = (path, init) => fetch(new URL(path, ctx.pageUrl), init);
  let r = await get("/");
  assert.equal(r.status, 200);
  assert.match(r.headers.get("content-type"), /^text\/html/);
  assert.match(await r.text(), /<link rel="icon" href="data:,">/);
  r = await get("/dist/app.js");
  assert.match(r.headers.get("content-type"), /^text\/javascript/);
  r = await get("/dist/app.css");
  assert.match(r.headers.get("content-type"), /^text\/css/);
  r = await get("/dist/dist/web/chromafs_core_bg.wasm");
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("content-type"), "application/wasm");
  assert.deepEqual([...new Uint8Array(await r.arrayBuffer()).slice(0, 4)], [0, 0x61, 0x73, 0x6d]);
  r = await get("/config.json");
  assert.deepEqual(await r.json(), { collection: ctx.collection, embed: true });
  r = await get("/chroma/api/v2/heartbeat");
  assert.equal(r.status, 200);
  assert.ok("nanosecond heartbeat" in (await r.json()));
  // Nothing outside dist/ is served.
  for (const path of ["/server.mjs", "/dist/../server.mjs", "/dist/%2e%2e/server.mjs", "/package.json", "/src/app.js"]) {
    r = await get(path);
    assert.equal(r.status, 404, path);
    await r.arrayBuffer();
  }
  r = await get("/", { method: "POST" });
  assert.equal(r.status, 405);
  await r.arrayBuffer();
});

// ---------------------------------------------------------------------------------------
// The page

test("the page loads, streams the wasm and connects as public", async () => {
  const { page } = ctx;
  await page.goto(ctx.pageUrl);
  await page.waitForFunction(() => document.body.dataset.ready === "1");
  assert.equal(await page.evaluate(() => document.body.dataset.role), "public");
  const wasm = ctx.wasmResponses.find((r) => r.url().endsWith("/dist/dist/web/chromafs_core_bg.wasm"));
  assert.ok(wasm, "the page fetched chromafs_core_bg.wasm from dist/");
  const tools = () => ctx.wasmResponses.filter((r) => r.url().endsWith("/dist/dist/web/chromafs_tools_bg.wasm"));
  assert.deepEqual(tools(), [], "the tools' module waits for the first command of theirs");
  const perl = ctx.wasmResponses.filter((r) => r.url().endsWith("/dist/dist/web/chromafs_perl_bg.wasm"));
  assert.deepEqual(perl, [], "grep -P's engine waits for a pattern that needs it");
  assert.equal(wasm.headers()["content-type"], "application/wasm");
  // wasm-bindgen falls back to compiling from bytes, with a warning, if streaming fails.
  assert.deepEqual(ctx.consoleAll.filter((m) => /instantiateStreaming|MIME/i.test(m)), []);
  const status = await page.locator("#status").textContent();
  assert.equal(status, `${ctx.pages - INTERNAL_PAGES.length} files visible in ${ctx.collection}`);
  assert.equal(await page.locator("#input").isDisabled(), false);
});

test("ls, cat and grep show their output, exit code, time and requests", async () => {
  let r = await run("ls /");
  assert.equal(r.exitCode, 0);
  assert.deepEqual(lines(r.stdout), ["concepts", "getting-started", "index.md", "reference", "security.md", "tmp"]);
  assert.equal(r.stderr, "");
  assert.equal(r.requests, 0, "ls is answered from the path tree");
  assert.match(r.meta, /exit 0 · [\d.]+ m?s · 0 requests/);

  r = await run("cat /index.md");
  assert.equal(r.exitCode, 0);
  assert.equal(r.stdout, (await readFile(join(docsDir, "index.md"), "utf8")).replace(/\n$/, ""));
  assert.ok(r.requests >= 1 && r.requests <= 2, `cat /index.md cost ${r.requests} requests`);

  r = await run("grep -rn cache /concepts");
  assert.equal(r.exitCode, 0);
  const expected = [];
  for (const name of (await readdir(join(docsDir, "concepts"))).sort()) {
    const text = await readFile(join(docsDir, "concepts", name), "utf8");
    text.split("\n").forEach((line, i) => {
      if (line.includes("cache")) expected.push(`/concepts/${name}:${i + 1}:${line}`);
    });
  }
  assert.ok(expected.length > 3);
  assert.deepEqual(lines(r.stdout).sort(), expected.sort());
  assert.ok(r.requests >= 1 && r.requests <= 4, `grep cost ${r.requests} requests`);
  assert.equal(r.plan, "narrow");
  assert.match(r.meta, /narrow · 1 coarse( \+ \d+ prefetch)? · \d+ of \d+ files/);

  // The same search again is served from the page cache but for the coarse query.
  r = await run("grep -rn cache /concepts");
  assert.ok(r.requests <= 1, `a repeated grep cost ${r.requests} requests`);

  r = await run("cat /nope.md");
  assert.equal(r.exitCode, 1);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^cat: \/nope\.md: No such file or directory/);
  assert.match(r.meta, /^exit 1/);
  assert.equal(await ctx.page.locator("#scrollback > .entry:last-child .stderr").evaluate((e) => getComputedStyle(e).color), "rgb(255, 123, 114)");
});

test("search ranks pages and points at the lines to read", async () => {
  const r = await run("search -n 3 how are hidden pages kept out of results");
  assert.equal(r.exitCode, 0, r.stderr);
  // Each hit: its path and lines, its title when the search read the page's start, and
  // its most telling line.
  const blocks = lines(r.stdout).filter((l) => !l.startsWith("  title: "));
  assert.equal(blocks.length, 6, r.stdout);
  for (let i = 0; i < 6; i += 2) {
    assert.match(blocks[i], /^\/[\w/.-]+\.md:\d+-\d+$/);
    assert.match(blocks[i + 1], /^ {2}\d+: \S/);
  }
  assert.ok(!blocks.some((l) => l.startsWith("/internal")), "the internal pages do not exist for this role");
  assert.ok(r.requests >= 1 && r.requests <= 3, `search cost ${r.requests} requests`);
  const [, path, start, end] = /^(.+):(\d+)-(\d+)$/.exec(blocks[0]);
  const read = await run(`sed -n '${start},${end}p' ${path}`);
  assert.ok(read.stdout.includes(blocks[1].replace(/^ {2}\d+: /, "").replace(/…$/, "")), read.stdout);
  // sed is the tools module's: fetched for it, once, as application/wasm.
  const tools = ctx.wasmResponses.filter((r) => r.url().endsWith("/dist/dist/web/chromafs_tools_bg.wasm"));
  assert.equal(tools.length, 1);
  assert.equal(tools[0].headers()["content-type"], "application/wasm");
  // A lookahead is grep -P's engine's: fetched for it, once.
  const perlFetched = () => ctx.wasmResponses.filter((r) => r.url().endsWith("/dist/dist/web/chromafs_perl_bg.wasm"));
  assert.deepEqual(perlFetched(), []);
  const ahead = await run(`grep -cP 'e(?=\\w)' ${path}`);
  assert.equal(ahead.exitCode, 0, JSON.stringify(ahead));
  assert.match(ahead.stdout, /^[1-9]\d*$/, "the count of lines with an e before a word character");
  assert.equal(perlFetched().length, 1);
  assert.equal(perlFetched()[0].headers()["content-type"], "application/wasm");
});

test("the page embeds its search queries through the server's POST /embed, which is bounded", async () => {
  const config = await (await fetch(new URL("/config.json", ctx.pageUrl))).json();
  assert.equal(config.embed, true, "the demo server runs the built-in model");
  const ok = await fetch(new URL("/embed", ctx.pageUrl), { method: "POST", body: JSON.stringify({ texts: ["rotate keys"] }) });
  const { embeddings } = await ok.json();
  assert.equal(embeddings[0].length, 384);
  for (const body of ["nope", JSON.stringify({ texts: "x" }), JSON.stringify({ texts: Array(9).fill("x") }), JSON.stringify({ texts: ["x".repeat(2001)] })]) {
    assert.equal((await fetch(new URL("/embed", ctx.pageUrl), { method: "POST", body })).status, 400, body.slice(0, 40));
  }
  const r = await run("search -l -n 1 can an agent change or delete the docs");
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(lines(r.stdout).length, 1);
});

test("the working directory and the history carry across commands", async () => {
  const { page } = ctx;
  let r = await run("cd /concepts");
  assert.equal(r.exitCode, 0);
  assert.equal(await page.locator("#prompt .cwd").textContent(), "/concepts");
  r = await run("pwd && ls");
  assert.match(r.prompt, /:\/concepts\$/);
  assert.equal(lines(r.stdout)[0], "/concepts");
  assert.ok(lines(r.stdout).includes("search.md"));
  r = await run("cat search.md | head -n 1");
  assert.equal(r.stdout, (await readFile(join(docsDir, "concepts", "search.md"), "utf8")).split("\n")[0]);
  r = await run("cd .. && pwd");
  assert.equal(r.stdout, "/");

  const input = page.locator("#input");
  await input.press("ArrowUp");
  assert.equal(await input.inputValue(), "cd .. && pwd");
  await input.press("ArrowUp");
  assert.equal(await input.inputValue(), "cat search.md | head -n 1");
  await input.press("ArrowDown");
  await input.press("ArrowDown");
  assert.equal(await input.inputValue(), "");

  await input.fill("cat /getting-started/qu");
  await input.press("Tab");
  assert.equal(await input.inputValue(), "cat /getting-started/quickstart.md ");
  await input.fill("");
});

test("public: the internal pages do not exist", async () => {
  let r = await run("ls /internal");
  assert.notEqual(r.exitCode, 0);
  assert.match(r.stderr, /No such file or directory/);
  r = await run("grep -ri invoice /");
  assert.equal(r.exitCode, 1);
  assert.equal(r.stdout, "");
  r = await run("ls -R /");
  assert.doesNotMatch(r.stdout, /internal|roadmap|pricing|outage/);
});

test("admin sees the internal pages; billing sees only its own", async () => {
  const line = await switchTo("admin");
  assert.match(line, new RegExp(`\\b${ctx.pages} files visible\\b`));
  assert.match(line, /\b1 request\b/, "reconnecting checks the path tree this page already loaded, with one request");

  let r = await run("ls -R /internal");
  assert.equal(r.exitCode, 0);
  for (const page of INTERNAL_PAGES) assert.ok(lines(r.stdout).includes(page), `${page} in ls -R /internal`);
  assert.match(await ctx.page.locator("#prompt .who").textContent(), /^admin$/);

  r = await run("grep -ri invoice /");
  assert.equal(r.exitCode, 0);
  assert.ok(lines(r.stdout).length > 0);
  // just-bash's grep -r joins the operand `/` and the entry's path as `//internal/…`.
  for (const l of lines(r.stdout)) assert.match(l, /^\/\/?internal\/billing\/pricing-notes\.md:/);
  assert.equal(r.plan, "narrow");

  r = await run("rg -l escalation /");
  assert.equal(r.stdout, "/internal/runbooks/chroma-outage.md");
  await ctx.page.screenshot({ path: join(ctx.shots, "desktop-1280x800.png") });

  await switchTo("billing");
  r = await run("find /internal -type f");
  assert.deepEqual(lines(r.stdout), ["/internal/billing/pricing-notes.md"]);
});

test("back to public: the internal pages vanish again", async () => {
  await run("cd /internal/billing");
  await switchTo("public");
  assert.equal(await ctx.page.locator("#prompt .cwd").textContent(), "/", "a directory that vanished is left");
  let r = await run("ls -R /");
  assert.doesNotMatch(r.stdout, /internal|roadmap|pricing|outage/);
  r = await run("grep -ri invoice /");
  assert.equal(r.exitCode, 1);
  assert.equal(r.stdout, "");
  r = await run("cat /internal/roadmap.md");
  assert.equal(r.exitCode, 1);
  assert.match(r.stderr, /^cat: \/internal\/roadmap\.md: No such file or directory/);
  r = await run("rg -l escalation /");
  assert.equal(r.stdout, "");
});

test("example buttons run their command", async () => {
  const { page } = ctx;
  const count = await page.locator("#scrollback > .entry").count();
  await page.locator('.example[data-command="tree /"]').click();
  await page.waitForFunction(
    (n) => document.querySelectorAll("#scrollback > .entry").length > n && document.querySelector("#scrollback > .entry:last-child").dataset.state === "done",
    count,
  );
  const r = await lastEntry();
  assert.equal(r.command, "tree /");
  assert.equal(r.exitCode, 0);
  assert.match(r.stdout, /getting-started/);
  assert.doesNotMatch(r.stdout, /internal/);
});

test("screenshots at 1280×800 and 390×844 without overflow", async () => {
  const { page } = ctx;
  await page.setViewportSize(SCREEN_DESKTOP);
  const desktop = join(ctx.shots, "desktop-1280x800.png");
  if (process.env.UPDATE_SCREENSHOT === "1") {
    // The README's picture: admin, a listing and two searches with their plans.
    await page.evaluate(() => {
      document.querySelector("#scrollback").replaceChildren();
      localStorage.clear();
    });
    await switchTo("admin");
    await run("ls /internal");
    await run("grep -rl cache /");
    await run("grep -ri invoice /");
    await run("rg -l escalation /");
    await page.locator("#input").fill("cat /internal/roadmap.md");
    await page.screenshot({ path: desktop });
    const png = await readFile(desktop);
    assert.ok(png.length < 200 * 1024, `screenshot.png is ${png.length} bytes`);
    await writeFile(join(here, "screenshot.png"), png);
    await page.locator("#input").fill("");
  }
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(await overflow(), 0);

  await page.setViewportSize(SCREEN_PHONE);
  await run("ls -R /");
  assert.equal(await overflow(), 0, "no horizontal scrolling at 390 px");
  const box = await page.locator("#terminal").boundingBox();
  assert.ok(box.width <= SCREEN_PHONE.width && box.height >= 300, `terminal box ${JSON.stringify(box)}`);
  await page.screenshot({ path: join(ctx.shots, "phone-390x844.png") });
  await page.screenshot({ path: join(ctx.shots, "phone-390x844-full.png"), fullPage: true });
  await page.setViewportSize(SCREEN_DESKTOP);
});

test("no errors in the browser console", () => {
  assert.deepEqual(ctx.consoleErrors, []);
});
