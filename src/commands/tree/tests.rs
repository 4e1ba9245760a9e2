use crate::commands::{run, Place};
use crate::tree::access::Groups;
use crate::tree::decode::PathTree;
use crate::tree::listing::Listing;

/// `/a.md` (7 bytes), `/docs/b.md` (5000) and `/docs/sub/c.md` (12), all of 2024-03-05 14:07:09.
fn tree(line: &str) -> (String, i32) {
    let t = 1_709_647_629_000u64;
    let json = format!(
        r#"{{"a.md":{{"isPublic":true,"size":7,"mtime":{t}}},"docs/b.md":{{"isPublic":true,"size":5000,"mtime":{t}}},"docs/sub/c.md":{{"isPublic":true,"size":12,"mtime":{t}}}}}"#
    );
    let l = Listing::new(&PathTree::from_json(&json, None).unwrap(), &Groups::default(), None, &[]).unwrap();
    let args: Vec<String> = line.split(' ').map(str::to_string).collect();
    let out = run("tree", &args, Place { listing: &l, scratch: None, cwd: "/" }, 1_795_749_644_000.0).unwrap();
    (out.stdout, out.exit_code)
}

#[test]
fn owners_and_times_stand_in_the_bracket() {
    assert_eq!(
        tree("-ugp --timefmt=%F /docs/sub").0,
        "[drwxr-xr-x user     user     2024-03-05]  /docs/sub\n└── [-rw-r--r-- user     user     2024-03-05]  c.md\n\n1 directory, 1 file\n"
    );
    assert_eq!(tree("-cD /docs/sub").0.lines().nth(1), Some("└── [Mar  5  2024]  c.md"));
}

#[test]
fn du_adds_up_what_directories_hold() {
    assert_eq!(
        tree("--du /docs").0,
        "[       5152]  /docs\n├── [       5000]  b.md\n└── [         72]  sub\n    └── [         12]  c.md\n\n        5084 bytes used in 2 directories, 2 files\n"
    );
    assert_eq!(tree("--du -h /docs/sub").0.lines().last(), Some("   12 used in 1 directory, 1 file"));
    assert_eq!(
        tree("--du -d /docs/sub").0,
        "[         60]  /docs/sub\n\n          60 bytes used in 0 directories\n",
        "an operand that lists nothing counts as a file would"
    );
}

#[test]
fn limits_patterns_and_pruning() {
    assert_eq!(
        tree("--filelimit 1 /docs").0,
        "/docs  [2 entries exceeds filelimit, not opening dir]\n\n1 directory, 0 files\n"
    );
    assert_eq!(
        tree("--filelimit 1 -I a.md /"),
        ("/\n└── docs  [2 entries exceeds filelimit, not opening dir]\n\n2 directories, 0 files\n".into(), 2),
        "a directory left closed below the operand is an error"
    );
    assert_eq!(tree("--filelimit 1 -I a.md --prune /"), ("/\n\n0 directories, 0 files\n".into(), 0), "and pruned");
    assert_eq!(
        tree("--filelimit 1 --prune /docs"),
        ("/docs  [error opening dir]\n\n0 directories, 1 file\n".into(), 0)
    );
    assert_eq!(
        tree("-P C.MD --ignore-case --prune /").0,
        "/\n└── docs\n    └── sub\n        └── c.md\n\n3 directories, 1 file\n"
    );
    assert_eq!(tree("--matchdirs -P docs /").0, "/\n└── docs\n    ├── b.md\n    └── sub\n\n3 directories, 1 file\n");
    assert_eq!(tree("--matchdirs -P docs/s* /").0.lines().nth(3), Some("        └── c.md"));
    assert_eq!(tree("--info --gitignore /docs/sub").0, tree("/docs/sub").0);
}

#[test]
fn colours_and_line_graphics() {
    assert_eq!(tree("-C /docs/sub").0, "\x1b[01;34m/docs/sub\x1b[0m\n└── \x1b[00mc.md\x1b[0m\n\n1 directory, 1 file\n");
    assert_eq!(tree("-A /docs").0.lines().nth(3), Some("\x1b(0    mqq \x1b(Bc.md"));
}

#[test]
fn xml_and_json_of_files_and_missing_paths() {
    assert_eq!(
        tree("-X /docs/sub /nope").0,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tree>\n  <directory name=\"/docs/sub\">\n    <file name=\"c.md\"></file>\n  </directory>\n \
         name=\"/nope\"><error>error opening dir</error>\n  </unknown>\n  <report>\n    <directories>1</directories>\n    <files>1</files>\n  </report>\n</tree>\n"
    );
    assert_eq!(
        tree("-J /a.md"),
        ("[\n  {\"type\":\"file\",\"name\":\"/a.md\",\"contents\":[{\"error\": \"error opening dir\"}\n\n  ]}\n,\n  {\"type\":\"report\",\"directories\":0,\"files\":1}\n]\n".into(), 0)
    );
    assert_eq!(
        tree("-J /nope /docs/sub").0,
        "[\n,\"name\":\"/nope\",\"contents\":[{\"error\": \"error opening dir\"}\n,\n  ]},\n  {\"type\":\"directory\",\"name\":\"/docs/sub\",\"contents\":[\n    {\"type\":\"file\",\"name\":\"c.md\",\"contents\":[  ]}\n  ]}\n,\n  {\"type\":\"report\",\"directories\":1,\"files\":1}\n]\n"
    );
    assert_eq!(tree("-Jd /nope /docs/sub").0.lines().nth(4), Some("  {\"type\":\"directory\",\"name\":\"/docs/sub\"}"));
}

#[test]
fn xml_and_json_without_indentation_as_tree_prints_them() {
    assert_eq!(
        tree("-J -i /").0,
        "[{\"type\":\"directory\",\"name\":\"/\",\"contents\":[{\"type\":\"file\",\"name\":\"a.md\"},{\"type\":\"directory\",\"name\":\"docs\",\"contents\":[{\"type\":\"file\",\"name\":\"b.md\"},{\"type\":\"directory\",\"name\":\"sub\",\"contents\":[{\"type\":\"file\",\"name\":\"c.md\"}]}]}]},{\"type\":\"report\",\"directories\":3,\"files\":3}]\n"
    );
    assert_eq!(
        tree("-X -i -L 2 /").0,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><tree><directory name=\"/\">\n<file name=\"a.md\"></file><directory name=\"docs\">\n<file name=\"b.md\"></file><directory name=\"sub\"></directory></directory></directory><report><directories>3</directories><files>2</files></report></tree>\n"
    );
    assert_eq!(
        tree("-J -i /nope /docs/sub"),
        ("[,\"name\":\"/nope\",\"contents\":[{\"error\": \"error opening dir\"},]},{\"type\":\"directory\",\"name\":\"/docs/sub\",\"contents\":[{\"type\":\"file\",\"name\":\"c.md\",\"contents\":[]}]},{\"type\":\"report\",\"directories\":1,\"files\":1}]\n".into(), 2)
    );
    assert_eq!(
        tree("-X -i /nope /a.md").0,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><tree> name=\"/nope\"><error>error opening dir</error>\n</unknown><file name=\"/a.md\"><error>error opening dir</error>\n</file><report><directories>0</directories><files>1</files></report></tree>\n"
    );
}

#[test]
fn a_web_page_links_each_entry_below_the_base() {
    let (page, code) = tree("-H /base/ -T Docs -L 1 /docs");
    assert_eq!(code, 0);
    assert!(page.starts_with("<!DOCTYPE html>\n"), "{page}");
    assert!(page.contains(" <title>Docs</title>\n"));
    let body = &page[page.find("\t<h1>").unwrap()..page.find("\t<hr>").unwrap()];
    assert_eq!(
        body,
        "\t<h1>Docs</h1><p>\n\t<a href=\"/base/\">/base</a><br>\n\t├── <a href=\"/base/b.md\">b.md</a><br>\n\t└── <a href=\"/base/sub/\">sub</a><br>\n<br><br><p>\n\n2 directories, 1 file\n\n</p>\n"
    );
    assert!(page.ends_with("</body>\n</html>\n"));
}

#[test]
fn rerun_below_the_level_cannot_write_its_page() {
    let l = {
        let t = 1_709_647_629_000u64;
        let json = format!(
            r#"{{"docs/b.md":{{"isPublic":true,"size":5,"mtime":{t}}},"docs/sub/c.md":{{"isPublic":true,"size":12,"mtime":{t}}}}}"#
        );
        Listing::new(&PathTree::from_json(&json, None).unwrap(), &Groups::default(), None, &[]).unwrap()
    };
    let args: Vec<String> = "-R -L 1 /docs".split(' ').map(str::to_string).collect();
    let out = run("tree", &args, Place { listing: &l, scratch: None, cwd: "/" }, 0.0).unwrap();
    assert_eq!(
        (out.stdout.as_str(), out.stderr.as_str(), out.exit_code),
        ("/docs\n├── b.md\n└── ", "tree: invalid filename '/docs/sub/00Tree.html'\n", 1),
        "tree stops where it would create the directory's page, as on any read-only filesystem"
    );
    assert_eq!(tree("-R /docs").0, tree("/docs").0, "without -L, -R changes nothing");
    assert_eq!(tree("--metafirst -s -L 1 /docs").0.lines().nth(1), Some("[       5000]  ├── b.md"));
}

#[test]
fn what_tree_says_before_it_walks() {
    let l = Listing::new(
        &PathTree::from_json(r#"{"docs/b.md":{"isPublic":true}}"#, None).unwrap(),
        &Groups::default(),
        None,
        &[],
    )
    .unwrap();
    let run_line = |line: &str| {
        let args: Vec<String> = line.split(' ').map(str::to_string).collect();
        run("tree", &args, Place { listing: &l, scratch: None, cwd: "/" }, 0.0).unwrap()
    };
    let out = run_line("-o /docs/out.html /docs");
    assert_eq!(
        (out.stdout.as_str(), out.stderr.as_str(), out.exit_code),
        ("", "tree: invalid filename '/docs/out.html'\n", 1)
    );
    assert!(run_line("--version").stdout.starts_with("tree v2.1.0 © 1996 - 2022"));
    let out = run_line("-H");
    assert_eq!((out.stderr.as_str(), out.exit_code), ("tree: Missing argument to -H option.\n", 1));
}

/// tree over the listing of [`tree`], its whole answer; `None` when left to just-bash.
fn answer(line: &str) -> Option<(String, String, i32)> {
    let t = 1_709_647_629_000u64;
    let json = format!(
        r#"{{"a.md":{{"isPublic":true,"size":7,"mtime":{t}}},"docs/b.md":{{"isPublic":true,"size":5000,"mtime":{t}}},"docs/sub/c.md":{{"isPublic":true,"size":12,"mtime":{t}}}}}"#
    );
    let l = Listing::new(&PathTree::from_json(&json, None).unwrap(), &Groups::default(), None, &[]).unwrap();
    let args: Vec<String> = line.split(' ').map(str::to_string).collect();
    let out = run("tree", &args, Place { listing: &l, scratch: None, cwd: "/" }, 0.0).ok()?;
    Some((out.stdout, out.stderr, out.exit_code))
}

#[test]
fn values_are_the_next_words_as_tree_2_1_reads_them() {
    // What tree 2.1.0 prints for each line, over the same files.
    let listed = |out: &str| Some((out.to_string(), String::new(), 0));
    assert_eq!(answer("-LP 1 a.md docs"), listed("docs\n└── sub\n\n2 directories, 0 files\n"));
    assert_eq!(answer("-dL 1 ."), listed(".\n└── docs\n\n2 directories\n"));
    assert_eq!(answer("--sortx name docs/sub"), listed("docs/sub\n└── c.md\n\n1 directory, 1 file\n"));
    assert_eq!(
        answer("docs/sub -- -a"),
        Some(("docs/sub\n└── c.md\n-a  [error opening dir]\n\n1 directory, 1 file\n".into(), String::new(), 2)),
        "after --, a word is a directory"
    );
    assert_eq!(answer("--sort=NAME docs/sub"), answer("docs/sub"), "tree 2.1 names its orders in any case");
    assert_eq!(answer("--sort ctime docs"), answer("--sort=mtime docs"));
    assert_eq!(answer("--sort=none docs"), None, "tree 2.1 has no `none` order: its error is just-bash's to print");
}

#[test]
fn tree_stops_at_the_first_error_it_reads() {
    let failed = |stderr: &str| Some((String::new(), stderr.to_string(), 1));
    let level = "tree: Invalid level, must be greater than 0.\n";
    assert_eq!(answer("-L2 docs"), failed(level), "the level is `docs`, read before `2`");
    assert_eq!(answer("-L 0 --version"), failed(level));
    assert_eq!(answer("--version -L 0"), failed(level), "tree prints its version once it has read the line");
    assert_eq!(answer("-L 0 -P"), failed(level));
    for (line, stderr) in [
        ("-L", "tree: Missing argument to -L option.\n"),
        ("docs -P", "tree: Missing argument to -P option.\n"),
        ("-I", "tree: Missing argument to -I option.\n"),
        ("-o", "tree: Missing argument to -o option.\n"),
        ("-aH", "tree: Missing argument to -H option.\n"),
        ("--sort", "tree: Missing argument to --sort\n"),
        ("--sort= docs", "tree: Missing argument to --sort=\n"),
        ("--filelimit=", "tree: Missing argument to --filelimit=\n"),
        ("--timefmt", "tree: Missing argument to --timefmt\n"),
    ] {
        assert_eq!(answer(line), failed(stderr), "{line}");
    }
    // "tree: Invalid argument `--noreport=1'." and its usage, which just-bash prints.
    for line in ["--noreport=1 docs", "--nope", "-k", "--help"] {
        assert_eq!(answer(line), None, "{line}");
    }
}

#[test]
fn dates_within_tree_s_six_months_of_31_days_show_the_time() {
    let now = 1_795_749_644_000u64;
    let day = 86_400_000u64;
    let json = format!(
        r#"{{"d/a.md":{{"isPublic":true,"size":1,"mtime":{}}},"d/b.md":{{"isPublic":true,"size":1,"mtime":{}}}}}"#,
        now - 183 * day,
        now - 187 * day
    );
    let l = Listing::new(&PathTree::from_json(&json, None).unwrap(), &Groups::default(), None, &[]).unwrap();
    let args: Vec<String> = ["-D", "--noreport", "/d"].iter().map(|s| s.to_string()).collect();
    let out = run("tree", &args, Place { listing: &l, scratch: None, cwd: "/" }, now as f64).unwrap().stdout;
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], "├── [May 28 03:20]  a.md", "183 days ago: GNU ls would show the year, tree the time");
    assert_eq!(lines[2], "└── [May 24  2026]  b.md");
}
