//! `find`'s time, owner, inode and regular-expression tests over a small listing.

use crate::commands::{run, Place, Printed};
use crate::tree::access::Groups;
use crate::tree::decode::PathTree;
use crate::tree::listing::Listing;

/// 2024-03-05 10:00 and 2024-03-01 00:00 (UTC).
const NEW: f64 = 1_709_632_800_000.0;
const OLD: f64 = 1_709_251_200_000.0;

fn find(cmd: &str, now_ms: f64) -> Printed {
    let json = format!(
        r#"{{"d/a.md":{{"isPublic":true,"size":6,"mtime":{NEW}}},"d/b.json":{{"isPublic":true,"size":5000,"mtime":{OLD}}}}}"#
    );
    let l = Listing::new(&PathTree::from_json(&json, None).unwrap(), &Groups::default(), None, &[]).unwrap();
    let args: Vec<String> = cmd.split(' ').map(str::to_string).collect();
    run("find", &args, Place { listing: &l, scratch: None, cwd: "/" }, now_ms).unwrap()
}

fn out(cmd: &str) -> String {
    find(cmd, NEW + 3_600_000.0).stdout
}

#[test]
fn access_and_change_times_are_the_modification_time() {
    assert_eq!(out("/d -type f -amin -61"), "/d/a.md\n");
    assert_eq!(out("/d -type f -cmin +60"), "/d/b.json\n");
    assert_eq!(out("/d -type f -atime 4"), "/d/b.json\n");
    assert_eq!(out("/d -type f -ctime 0"), "/d/a.md\n");
    assert_eq!(out("/d -type f -anewer /d/b.json"), "/d/a.md\n");
    assert_eq!(out("/d -type f -cnewer /d/b.json"), "/d/a.md\n");
    assert_eq!(out("/d -type f -newerBa /d/b.json"), "/d/a.md\n");
    assert_eq!(out("/d -type f -newerct 2024-03-02"), "/d/a.md\n");
    assert_eq!(find("/d -newerxm /d/a.md", NEW).stderr, "find: invalid predicate `-newerxm'\n");
    assert_eq!(out("/d -type f -used 1"), "/d/a.md\n/d/b.json\n");
    assert_eq!(out("/d -type f -used 0"), "");
}

#[test]
fn security_contexts_are_refused_as_on_a_system_without_selinux() {
    let refused = find("/d -context x", NEW);
    assert_eq!((refused.stdout.as_str(), refused.exit_code), ("", 1));
    assert_eq!(refused.stderr, "find: invalid predicate -context: SELinux is not enabled.\n");
}

#[test]
fn the_version_is_printed_where_find_reads_the_option() {
    assert!(out("--version").starts_with("find (GNU findutils) 4.9.0\n"));
    assert!(out("/d -type f -version").starts_with("find (GNU findutils) 4.9.0\n"));
    assert_eq!(out("/d -name -version"), "", "a name to match, not the option");
    let warned = find("-D bogus /d -bogus", NEW);
    assert!(warned.stderr.starts_with("find: Ignoring unrecognised debug flag ‘bogus’\nfind: unknown predicate"));
}

#[test]
fn daystart_measures_from_the_end_of_today_for_the_tests_after_it() {
    // At 23:00 the same day, a.md is 13 hours old: 0 days; from the end of the day, 0 too.
    let late = NEW + 13.0 * 3_600_000.0;
    assert_eq!(find("/d -type f -mtime 0", late).stdout, "/d/a.md\n");
    assert_eq!(find("/d -type f -daystart -mmin -900", late).stdout, "/d/a.md\n");
    // The next day at 01:00: 15 hours old (0 days), but 1 day from the end of that day.
    let next = NEW + 15.0 * 3_600_000.0;
    assert_eq!(find("/d -type f -mtime 0", next).stdout, "/d/a.md\n");
    assert_eq!(find("/d -type f -daystart -mtime 1", next).stdout, "/d/a.md\n");
    assert_eq!(find("/d -type f -mtime 1 -daystart", next).stdout, "", "positional");
}

#[test]
fn owners_are_user_and_1000() {
    assert_eq!(out("/d -type f -user user -group 1000 -uid 1000 -gid -1001"), "/d/a.md\n/d/b.json\n");
    assert_eq!(out("/d -user root -o -uid 0 -o -nouser -o -nogroup -o -writable -o -fstype tmpfs"), "");
    assert_eq!(out("/d -maxdepth 0 -fstype chromafs"), "/d\n");
    assert_eq!(find("/d -uid x", NEW).stderr, "find: invalid argument `x' to `-uid'\n");
    assert_eq!(find("/d -user ", NEW).stderr, "find: The argument to -user should not be empty\n");
    assert_eq!(out("/d -printf %u:%g:%U:%G\\n -quit"), "user:user:1000:1000\n");
}

#[test]
fn inodes_and_ls() {
    let inos = out("/d -printf %i\\n");
    let first: u64 = inos.lines().next().unwrap().parse().unwrap();
    assert_eq!(out(&format!("/d -inum {first}")), "/d\n");
    assert_eq!(out(&format!("/d -inum -{first} -o -inum +{first}")), "/d/a.md\n/d/b.json\n");
    let ls = out("/d -name b.json -ls");
    assert!(ls.ends_with("      8 -rw-r--r--   1 user     user         5000 Mar  1 00:00 /d/b.json\n"), "{ls}");
    assert!(out("/d -maxdepth 0 -ls").contains("      0 drwxr-xr-x   2 user     user           80 Mar  5 10:00 /d\n"));
}

#[test]
fn regex_matches_the_whole_path() {
    assert_eq!(out("/d -regex .*\\.md"), "/d/a.md\n");
    assert_eq!(out("/d -regex a.md"), "");
    assert_eq!(out("/d -iregex .*/A\\.MD"), "/d/a.md\n");
    assert_eq!(out("/d -regextype posix-extended -regex .*\\.(md|json)"), "/d/a.md\n/d/b.json\n");
    assert_eq!(out("/d -regex .*\\.(md|json) -o -regextype egrep -regex .*json"), "/d/b.json\n", "positional");
    let bad = find("/d -regextype perl", NEW);
    assert!(bad.stderr.starts_with("find: Unknown regular expression type ‘perl’;") && bad.exit_code == 1);
}

#[test]
fn daystart_is_no_test_and_quit_or_prune_no_action() {
    assert_eq!(out("/d ! -daystart -name a.md"), "/d\n/d/b.json\n", "! applies to the test after -daystart");
    assert_eq!(out("/d -true -o -quit"), "/d\n/d/a.md\n/d/b.json\n", "the implicit -print stays");
    assert_eq!(out("/d -prune -o -quit"), "/d\n");
    assert_eq!(out("/d -quit"), "");
}

#[test]
fn type_takes_a_comma_separated_list_as_findutils_does() {
    assert_eq!(out("/d -type f,d"), "/d\n/d/a.md\n/d/b.json\n");
    assert_eq!(out("/d -type f,l"), "/d/a.md\n/d/b.json\n");
    assert_eq!(out("/d -xtype l,d"), "/d\n");
    assert_eq!(out("/d -type l,s"), "");
    let refused = |t: &str| {
        let p = find(&format!("/d -type {t}"), NEW);
        assert_eq!((p.stdout.as_str(), p.exit_code), ("", 1), "{t}");
        p.stderr
    };
    assert_eq!(refused("fd"), "find: Must separate multiple arguments to -type using: ','\n");
    assert_eq!(
        refused("f,"),
        "find: Last file type in list argument to -type is missing, i.e., list is ending on: ','\n"
    );
    assert_eq!(refused("f,f"), "find: Duplicate file type 'f' in the argument list to -type.\n");
    assert_eq!(refused(",f"), "find: Unknown argument to -type: ,\n");
    assert_eq!(refused("f,x"), "find: Unknown argument to -type: x\n");
    assert!(refused("D").starts_with("find: -type D is not supported because Solaris doors"));
}
