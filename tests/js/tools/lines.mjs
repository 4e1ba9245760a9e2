// The command lines of the tools' differential suite: what agents pipe grep output into
// and run over pages and /tmp (sort, uniq, wc, head, tail, cut, sed, awk, xargs, tr, diff,
// comm and the rest), options × inputs. The pages are at /docs; SETUP fills /tmp first.

/** The pages (below /docs): front matter, code fences, tables, numbers, UTF-8, edge cases. */
export const PAGES = {
  "index.md": "---\ntitle: Acme\ndescription: The Acme platform\n---\n# Acme docs\nStart with the quickstart.\nSee the [API](api/auth.md).\n",
  "guides/quickstart.md":
    "---\ntitle: Quickstart\nsidebar: 1\n---\n# Quickstart\nInstall the CLI.\n\n```bash\nnpm install acme\nacme login --token $TOKEN\n```\n\nThen add middleware to your app.\n\n```js\nimport { acme } from \"acme\";\napp.use(acme.middleware());\n```\n\nThat is all.\n",
  "guides/middleware.md": "# Middleware\nMiddleware runs before each request.\nUse middleware for auth and logging.\n\n```js\napp.use(authMiddleware)\n```\n",
  "guides/deploy.md": "# Deploy\nDeploy with `acme deploy`.\nSet the token first.\n  Indented line with    spaces.\n\tTabbed line.\n",
  "api/auth.md": "# Auth\nSend the token in the Authorization header.\nTokens expire after an hour.\nRefresh a token with /auth/refresh.\n",
  "api/errors.md": "# Errors\n401 means the token is missing.\n403 means the token lacks a scope.\n429 means too many requests.\n500 means the server failed.\n",
  "api/webhooks.md": "# Webhooks\nWebhooks retry with backoff.\nVerify the signature header.\n",
  "data/users.csv": "id,name,role,score\n3,carol,admin,88\n1,alice,user,92\n2,bob,user,75\n10,dave,guest,\n4,erin,admin,100\n",
  "data/sizes.txt": "2K build\n1M logs\n512 readme\n3G images\n10K tests\n1.5M docs\n",
  "data/versions.txt": "v1.10.0\nv1.2.0\nv1.9.3\nv2.0.0\nv1.2.10\nv10.0.1\n",
  "data/words.txt": "apple\nBanana\ncherry\napple\nbanana\nCherry\napple\ndate\n\nelder\n",
  "data/table.tsv": "name\tcount\tunit\nalpha\t3\tkg\nbeta\t12\tg\ngamma\t7\tkg\n",
  "intl.md": "# Internationale\ncafé au lait\nnaïve résumé\n日本語のドキュメント\nemoji 🎉 party\nÅngström\n",
  "nonl.md": "first line\nsecond line\nno newline at the end",
  "empty.md": "",
  "changelog.md": "# Changelog\n## 2.1\nAdded middleware hooks.\n## 2.0\nNew auth flow with tokens.\n## 1.9\nWebhooks retry.\n",
};

/** Run once before the lines, on every side: files in /tmp the lines then read. */
export const SETUP = [
  "grep -rn token /docs > /tmp/hits; grep -rl token /docs | sort > /tmp/files; grep -rc token /docs | sort > /tmp/counts",
  "printf 'b\\na\\nc\\na\\n' > /tmp/letters; printf '3\\n1\\n2\\n' > /tmp/n; printf 'x y z\\n' > /tmp/xyz",
];

const Q = "/docs/guides/quickstart.md";
const CSV = "/docs/data/users.csv";
const W = "/docs/data/words.txt";
const FILES = [Q, "/docs/api/errors.md", "/docs/nonl.md", "/docs/empty.md", "/docs/intl.md", "/tmp/hits"];

/** `tool opts FILE` for every option set and file, and `cat FILE | tool opts`. */
const cross = (tool, opts, files = FILES) => opts.flatMap((o) => files.map((f) => `${tool} ${o} ${f}`.replace(/  +/g, " ")));
const piped = (tool, opts, from = "grep -rh token /docs") => opts.map((o) => `${from} | ${tool} ${o}`.trimEnd());

export const LINES = [
  // head and tail
  ...cross("head", ["", "-n 3", "-3", "-c 20", "-n -2", "-c -5", "-n 0", "-q -n1", "-v -n1", "--lines=2", "-c 1k"]),
  "head -n1 -- /docs/index.md", "head -n 2 /docs/index.md /docs/nope.md /docs/api", "head -n x /docs/index.md", "head -k /docs/index.md",
  ...piped("head", ["-5", "-n 2", "-c 30", "-n -3"]),
  ...cross("tail", ["", "-n 3", "-3", "-c 20", "-n +2", "-c +10", "--lines=+4", "-n 0", "-q -n1", "-v -n2", "+3"]),
  "tail -n 2 /docs/index.md /docs/nope.md", "tail -n1 /docs/api/*.md", "tail -n x /docs/index.md",
  ...piped("tail", ["-5", "-n 2", "-n +3", "-c 15"]),
  // wc
  ...cross("wc", ["", "-l", "-w", "-c", "-m", "-L", "-lw"]),
  "wc /docs/api/*.md", "wc -l /docs/api/*.md /docs/nope.md", "wc -l < /docs/index.md", "wc --total=only -l /docs/api/*.md", "wc /docs/guides",
  ...piped("wc", ["", "-l", "-w", "-c", "-m"]),
  // sort
  ...cross("sort", ["", "-r", "-u", "-f", "-n", "-rn", "-k2", "-t, -k2", "-t, -k4 -n", "-b", "-s -k1,1"], [W, CSV, "/docs/data/sizes.txt", "/tmp/counts", "/docs/intl.md"]),
  ...["-h", "-rh", "-k1h", "-V", "-k1V", "-g", "-M", "-d", "-i", "-c", "-C", "-t, -k3,3 -k4,4nr", "-t, -k2,2 -u", "-z", "-o /tmp/sorted", "-m /tmp/letters /tmp/n", "-k1.2", "-k 2 -t ' '"].flatMap((o) => [`sort ${o} /docs/data/sizes.txt`, `sort ${o} /docs/data/versions.txt`, `sort ${o} ${CSV}`]),
  "sort /docs/nope.md", "sort /docs/api", "sort -k 0 /tmp/n", "sort --foo /tmp/n", "sort -t ab /tmp/n", "sort /tmp/letters /tmp/n", "sort -o /docs/x /tmp/n",
  ...piped("sort", ["", "-u", "-r", "-f", "-t: -k2 -n", "-t: -k1,1 -u"], "grep -rn token /docs"),
  // uniq
  ...cross("uniq", ["", "-c", "-d", "-u", "-i", "-ci", "-D", "-f1", "-s2", "-w3", "--all-repeated=separate", "--group"], [W, "/tmp/letters", "/docs/data/sizes.txt"]),
  ...piped("uniq", ["-c", "-d", "-u", "-c | sort -rn"], "sort /docs/data/words.txt"),
  "sort /docs/data/words.txt | uniq -c | sort -rn | head -3", "uniq /docs/nope.md", "uniq -x /tmp/letters",
  // cut
  ...cross("cut", ["-d, -f2", "-d, -f1,3", "-d, -f3,1", "-d, -f2-", "-d, -f-2", "-d, -f2 -s", "-d, --complement -f1", "-d, -f1,2 --output-delimiter=' | '", "-c1-5", "-b2-4", "-c3-", "-f1"], [CSV, "/docs/data/table.tsv", "/docs/nonl.md", "/tmp/hits"]),
  "cut -d: -f1 /tmp/hits", "cut -d: -f1,2 /tmp/hits", "cut -d, -f0 /docs/data/users.csv", "cut /docs/data/users.csv", "cut -d ab -f1 /tmp/n", "cut -c1-3 /docs/intl.md",
  ...piped("cut", ["-d: -f1", "-d: -f2", "-d: -f3-", "-c1-20"], "grep -rn token /docs"),
  // tr
  ...piped("tr", ["a-z A-Z", "-d '[:digit:]'", "-s ' '", "-cd '[:alnum:]\\n'", "'[:upper:]' '[:lower:]'", "-d '\\n'", "' ' '\\n'", "-s '[:space:]' '\\n'", "a-y b-z", "-c 'a-z\\n' '_'"], `cat ${Q}`),
  "tr '\\0' '\\n' < /tmp/n", "tr -d 'aeiou' < /docs/api/auth.md", "tr a < /tmp/n", "tr", "echo hello | tr -s l", "echo café | tr a-z A-Z", "echo abc | tr abc '[x*]'",
  // sed
  ...cross("sed", ["-n '2,4p'", "-n '/^```/,/^```/p'", "'/^---$/,/^---$/d'", "-n '/^---$/,/^---$/p'", "'2,/^$/d'", "'s/token/TOKEN/g'", "-n '$='", "'1d'", "'$!d'", "-n '/token/{p;q}'", "'s/^/> /'", "-E 's/([a-z]+) ([a-z]+)/\\2 \\1/'", "'/^$/d'", "-n 'l'", "'y/abc/xyz/'", "-n '/middleware/='", "'s|/|_|g'", "'N;P;D'", "-n '1~2p'", "'0,/token/s//TOKEN/'"], [Q, "/docs/index.md", "/docs/nonl.md", "/docs/empty.md", "/tmp/hits"]),
  "sed -n '5,10p' /docs/nope.md /docs/index.md", "sed -s -n '1p' /docs/api/*.md", "sed -e 's/a/A/' -e 's/e/E/' /docs/api/auth.md", "sed 's/a/b' /docs/index.md", "sed -k 1p /docs/index.md", "sed -i 's/a/b/' /docs/index.md",
  "sed -n '/```bash/,/```/{//!p}' " + Q, "sed '1~3d' " + Q, "sed -n 'h;n;G;p' /docs/api/auth.md", "sed = /docs/api/auth.md | sed 'N;s/\\n/\\t/'", "sed 's/\\(token\\)/[\\1]/g' /docs/api/auth.md", "sed -z 's/\\n/,/g' /tmp/n",
  ...piped("sed", ["-n '1,3p'", "'s/token/T/'", "-E 's/^([^:]+):.*/\\1/'", "'/scope/d'"], "grep -rn token /docs"),
  // awk
  ...cross("awk", ["'{print $1}'", "'{print NF}'", "'length > 20'", "'NR==2,NR==4'", "'/token/{c++} END{print c+0}'", "'{n+=length} END{print n}'", "'END{print NR}'", "'{print NR\": \"$0}'", "'{$1=$1}1'", "-v OFS='\\t' '{$1=$1}1'", "'NF'", "'{print $NF}'", "'!seen[$0]++'", "'{print toupper($0)}'", "'{printf \"%-10s|%5d\\n\", $1, NR}'", "'BEGIN{FS=\":\"} {print $1}'"], [Q, "/docs/api/errors.md", "/docs/nonl.md", "/docs/empty.md", "/tmp/hits", "/docs/intl.md"]),
  ...cross("awk", ["-F, '{print $2}'", "-F, 'NR>1{s+=$4} END{print s, s/(NR-1)}'", "-F, '$3==\"admin\"{print $2}'", "-F, '{print $2}' OFS=-", "'{print $2}' FS=,", "-F, -v OFS=, '{$1=\"\"; print}'", "-F, 'NR>1 && $4>80'", "-F, '{a[$3]++} END{for (k in a) n++; print n}'", "-F, '{printf \"%s=%s\\n\", $1, $4}'", "-F'\\t' '{print $2}'"], [CSV, "/docs/data/table.tsv"]),
  "awk 'BEGIN{print 1/3, 2^10, 10%3, int(3.9), sqrt(16)}'", "awk 'BEGIN{print substr(\"hello\", 2, 3), index(\"hello\", \"ll\"), length(\"abc\")}'", "awk 'BEGIN{n=split(\"a,b,c\", p, \",\"); print n, p[3]}'",
  "awk 'BEGIN{s=\"aaa\"; gsub(/a/, \"b\", s); print s}'", "awk 'BEGIN{printf \"%5.2f|%-4s|%03d|%x|%c\\n\", 3.14159, \"ab\", 7, 255, 65}'", "awk 'BEGIN{x; print x+0, x \"\"; print (\"10\" < \"9\"), (10 < 9)}'",
  "awk 'BEGIN{RS=\"\"} {print NR\": \"$1}' " + Q, "awk 'BEGIN{while ((getline l < \"/tmp/n\") > 0) s+=l; print s}'", "awk '{print > \"/tmp/awk-out\"} END{close(\"/tmp/awk-out\"); while ((getline l < \"/tmp/awk-out\") > 0) n++; print n}' /docs/index.md",
  "awk 'function f(x){return x*2} {print f(NR)}' /docs/api/auth.md", "awk '{print $1' /docs/index.md", "awk -f /docs/nope.awk", "awk '{print}' /docs/nope.md", "awk 'BEGIN{print length()}' < /docs/index.md",
  "awk 'NR>1 && /^---$/{exit} NR>1{print}' /docs/index.md", "awk -F: '$2 > 0 {print $1}' /tmp/counts", "awk '{print FILENAME, FNR}' /docs/api/auth.md /docs/api/webhooks.md", "awk 'BEGIN{print match(\"foobar\", /ob/), RSTART, RLENGTH}'",
  ...piped("awk", ["-F: '{print $1}'", "-F: '{c[$1]++} END{print length(c)}'", "'{print length($0)}'", "-F: '{print $2\": \"$1}'"], "grep -rn token /docs"),
  // xargs
  ...["", "-n1", "-n 2", "-I{} echo '<{}>'", "-L1", "-0", "-r", "-t", "-d, -n1"].flatMap((o) => [`xargs ${o} < /tmp/files`, `printf 'a b\\nc\\n' | xargs ${o}`]),
  "xargs grep -c token < /tmp/files", "xargs -n1 basename < /tmp/files", "xargs wc -l < /tmp/files", "grep -rl token /docs | xargs -I{} sh -c 'echo {}'", "echo | xargs -r echo none", "xargs -a /tmp/letters echo", "xargs -n 0 echo < /tmp/n", "echo \"it's\" | xargs echo", "echo a b | xargs -n1 -I X echo X",
  // The commands' UTF-8 output in what xargs passes on (a pipe, a file), and in its -t trace.
  "xargs < /docs/intl.md | sort", "xargs -n1 < /docs/intl.md > /tmp/x; wc -c /tmp/x", "echo '├ 日本' | xargs | wc -c", "echo 日 | xargs -t 2>/dev/null | cat",
  // diff and comm
  ...["", "-u --label a --label b", "-q", "-s", "-i", "-w", "-b", "-B", "-c --label a --label b", "-y -W 60", "--normal", "-e"].flatMap((o) => [`diff ${o} /docs/api/auth.md /docs/api/webhooks.md`, `diff ${o} /tmp/letters /tmp/n`, `diff ${o} /docs/index.md /docs/index.md`]),
  "diff /docs/api/auth.md /docs/nope.md", "diff /docs/api /docs/guides", "diff -r /docs/api /docs/guides", "diff -q -r /docs/api /docs/guides", "diff <(sort /tmp/letters) <(sort -u /tmp/letters)", "diff --foo a b", "diff /docs/nonl.md /docs/empty.md",
  ...["", "-12", "-23", "-13", "-3", "--output-delimiter=:"].flatMap((o) => [`comm ${o} <(sort /tmp/letters) <(sort /tmp/n)`, `comm ${o} /tmp/files <(grep -rl middleware /docs | sort)`]),
  "comm /tmp/letters /tmp/n", "comm --nocheck-order /tmp/letters /tmp/n", "comm -12 /docs/nope.md /tmp/n",
  // the rest: nl, tac, paste, fold, seq, basename, dirname, realpath, md5sum, join, expand
  ...cross("nl", ["", "-ba", "-w3", "-s': '", "-nrz", "-nln", "-bt -v10 -i5"], [Q, "/docs/nonl.md", "/docs/empty.md"]),
  ...cross("tac", ["", "-s ,"], [Q, CSV, "/docs/nonl.md"]),
  "tac /docs/api/auth.md /docs/api/webhooks.md", "tac /docs/nope.md",
  "paste /tmp/letters /tmp/n", "paste -d, /tmp/letters /tmp/n", "paste -s /tmp/n", "paste -sd+ /tmp/n", "paste -s -d, /tmp/letters /tmp/n", "paste - - < /tmp/letters", "paste /docs/nope.md /tmp/n",
  ...cross("fold", ["-w 20", "-sw 20", "-w5 -b"], [Q, "/docs/intl.md"]),
  "seq 5", "seq 2 5", "seq 10 -3 1", "seq 1 0.5 3", "seq -w 8 11", "seq -s, 5", "seq -f '%03g' 3", "seq 0", "seq x", "seq 1 0 5",
  "basename /docs/guides/quickstart.md", "basename /docs/guides/quickstart.md .md", "basename -s .md /docs/a.md /docs/b.md", "basename -a /x/y /z/", "dirname /docs/guides/quickstart.md /a /", "dirname",
  "realpath /docs/guides/../api/auth.md", "cd /docs/api && realpath auth.md ../index.md", "realpath /docs/nope.md", "realpath -m /docs/nope/x", "realpath --relative-to=/docs/api /docs/guides/deploy.md",
  ...cross("md5sum", [""], [Q, "/docs/empty.md", "/docs/intl.md"]), "md5sum /docs/api/*.md", "sha256sum /docs/index.md", "sha1sum /docs/index.md /docs/nope.md",
  // mktemp: what does not depend on the random letters
  "mktemp --help", "mktemp -V", "mktemp fooXX", "mktemp -u --suffix=.md /tmp/aXXXXXX | wc -c", "mktemp -t a/XXX", "mktemp -p /docs",
  "f=$(mktemp /tmp/wXXXXX.txt) && echo hi > $f && cat $f", "mktemp --suffix=x yXXXz", "mktemp --d",
  "join -t, <(sort -t, -k1,1 /docs/data/users.csv) <(printf '1,x\\n2,y\\n')", "join /tmp/letters /tmp/letters", "expand /docs/data/table.tsv", "expand -t 4 /docs/guides/deploy.md", "unexpand -a /docs/guides/deploy.md",
  // A missing file among others, both streams to one place: each error where GNU's tool writes it.
  ...["head -n1", "tail -n1", "wc -l", "cut -c1-4", "nl", "md5sum", "tac", "sed -n 1p", "sort", "fold -w 8", "awk 'NR==1'", "paste", "expand", "fmt"].map((t) => `${t} /docs/index.md /docs/nope.md /docs/api/auth.md 2>&1`),
  "head -n1 /docs/nope.md /docs/api/*.md 2>&1 | head -4", "wc -c /docs/api/auth.md /docs/nope.md 2>&1 | tail -2",
  // pipelines agents write
  "grep -rn token /docs | cut -d: -f1 | sort | uniq -c | sort -rn", "grep -rl middleware /docs | xargs wc -l | sort -n", "grep -rh '^# ' /docs | sed 's/^# //' | sort | head -5",
  "grep -rc token /docs | awk -F: '$2>0' | sort -t: -k2 -rn | head -3", "cat /docs/data/users.csv | tail -n +2 | sort -t, -k4 -rn | head -2 | cut -d, -f2", "grep -rho '[A-Z][a-z]*' /docs | sort | uniq -c | sort -k1,1nr -k2 | head",
  "find /docs -name '*.md' | sort | xargs -n1 wc -l", "ls /docs/api | wc -l", "grep -rn '```' /docs | wc -l", "sed -n '/^```js/,/^```/p' /docs/guides/*.md | grep -v '```'",
];
