//! The scratch directory on its own: what writes, listings and limits do.

use super::*;

fn scratch(limit: u64) -> Scratch {
    Scratch::new("/tmp", limit, 1.0)
}

fn err(r: Result<impl std::fmt::Debug, FsError>) -> String {
    r.unwrap_err().to_string()
}

#[test]
fn writes_list_in_javascript_order() {
    let mut s = scratch(1 << 20);
    s.mkdir("/tmp/b/c", "/tmp/b/c", true, 2.0).unwrap();
    s.write("/tmp/b/c/hits", "/tmp/b/c/hits", b"x\n", false, 2.0).unwrap();
    s.write("/tmp/a", "/tmp/a", b"one\n", false, 2.0).unwrap();
    s.write("/tmp/a", "/tmp/a", b"two\n", true, 3.0).unwrap();
    s.write("/tmp/Z", "/tmp/Z", b"", false, 2.0).unwrap();
    assert_eq!(&*s.read("/tmp/a", "/tmp/a").unwrap(), b"one\ntwo\n");
    assert_eq!(s.readdir("/tmp", "/tmp").unwrap(), [("Z".into(), false), ("a".into(), false), ("b".into(), true)]);
    assert_eq!(s.readdir("/tmp/b", "/tmp/b").unwrap(), [("c".to_string(), true)]);
    let st = s.stat("/tmp/a", "/tmp/a", "stat").unwrap();
    assert_eq!((st.is_file, st.size, st.mode, st.mtime_ms), (true, 8, 0o644, 3.0));
    assert_eq!(s.used(), 10);
    assert!(s.contains("/tmp") && s.contains("/tmp/x") && !s.contains("/tmpx") && !s.contains("/"));
    assert_eq!(s.name(), "tmp");
}

#[test]
fn errors_are_just_bashs() {
    let mut s = scratch(1 << 20);
    s.write("/tmp/f", "/tmp/f", b"x", false, 1.0).unwrap();
    assert_eq!(err(s.read("/tmp/nope", "/tmp/nope")), "ENOENT: no such file or directory, open '/tmp/nope'");
    assert_eq!(err(s.read("/tmp", "/tmp")), "EISDIR: illegal operation on a directory, read '/tmp'");
    assert_eq!(
        err(s.write("/tmp", "/tmp", b"x", false, 1.0)),
        "EISDIR: illegal operation on a directory, write '/tmp'"
    );
    assert_eq!(err(s.readdir("/tmp/f", "/tmp/f")), "ENOTDIR: not a directory, scandir '/tmp/f'");
    assert_eq!(err(s.mkdir("/tmp/f", "/tmp/f", false, 1.0)), "EEXIST: file already exists, mkdir '/tmp/f'");
    assert_eq!(err(s.mkdir("/tmp", "/tmp", false, 1.0)), "EEXIST: file already exists, mkdir '/tmp'");
    assert!(s.mkdir("/tmp", "/tmp", true, 1.0).is_ok(), "mkdir -p of an existing directory");
    assert_eq!(err(s.mkdir("/tmp/a/b", "/tmp/a/b", false, 1.0)), "ENOENT: no such file or directory, mkdir '/tmp/a/b'");
    s.mkdir("/tmp/a/b", "/tmp/a/b", true, 1.0).unwrap();
    assert_eq!(err(s.write("/tmp/f/x", "/tmp/f/x", b"x", false, 1.0)), "ENOTDIR: not a directory, open '/tmp/f/x'");
    assert_eq!(
        err(s.write("/tmp/f/y/x", "/tmp/f/y/x", b"x", false, 1.0)),
        "ENOTDIR: not a directory, open '/tmp/f/y/x'"
    );
    assert_eq!(
        err(s.write("/tmp/no/x", "/tmp/no/x", b"x", false, 1.0)),
        "ENOENT: no such file or directory, open '/tmp/no/x'"
    );
    assert_eq!(
        err(s.write("/tmp/no/y/x", "/tmp/no/y/x", b"", true, 1.0)),
        "ENOENT: no such file or directory, open '/tmp/no/y/x'"
    );
    assert!(!s.exists("/tmp/no"), "a failed write makes no directory");
    assert_eq!(
        err(s.write_error("/tmp/no/x", "/tmp/no/x", "write")),
        "ENOENT: no such file or directory, open '/tmp/no/x'"
    );
    assert_eq!(
        err(s.write_error("/tmp/a", "/tmp/a", "write")),
        "EISDIR: illegal operation on a directory, write '/tmp/a'"
    );
    assert!(
        s.write_error("/tmp/f", "/tmp/f", "write").is_ok() && s.write_error("/tmp/new", "/tmp/new", "write").is_ok()
    );
    assert_eq!(err(s.rm("/tmp/a", "/tmp/a", false, false)), "ENOTEMPTY: directory not empty, rm '/tmp/a'");
    assert_eq!(err(s.rm("/tmp/nope", "/tmp/nope", false, false)), "ENOENT: no such file or directory, rm '/tmp/nope'");
    assert!(s.rm("/tmp/nope", "/tmp/nope", false, true).is_ok(), "rm -f");
    s.rm("/tmp/a", "/tmp/a", true, false).unwrap();
    assert!(!s.exists("/tmp/a/b"));
}

#[test]
fn the_byte_budget_is_enospc_and_changes_nothing() {
    let mut s = scratch(10);
    s.write("/tmp/a", "/tmp/a", b"12345678", false, 1.0).unwrap();
    let e = err(s.write("/tmp/b", "/tmp/b", b"123", false, 1.0));
    assert_eq!(e, "ENOSPC: no space left on device, write '/tmp/b': /tmp holds at most 10 bytes (scratchBytes)");
    assert!(!s.exists("/tmp/b"));
    assert!(s.write("/tmp/a", "/tmp/a", b"12", true, 1.0).is_ok(), "exactly full");
    assert!(s.write("/tmp/a", "/tmp/a", b"3", true, 1.0).is_err());
    s.write("/tmp/a", "/tmp/a", b"", false, 1.0).unwrap();
    assert_eq!(s.used(), 0, "overwriting frees the old content");
    s.mkdir("/tmp/d", "/tmp/d", false, 1.0).unwrap();
    s.write("/tmp/d/x", "/tmp/d/x", b"1234567890", false, 1.0).unwrap();
    s.rm("/tmp/d", "/tmp/d", true, false).unwrap();
    assert_eq!(s.used(), 0, "removing frees it too");
}

#[test]
fn moves_stay_inside_and_the_root_stays() {
    let mut s = scratch(100);
    s.mkdir("/tmp/d", "/tmp/d", false, 1.0).unwrap();
    s.write("/tmp/d/x", "/tmp/d/x", b"xx", false, 1.0).unwrap();
    s.write("/tmp/y", "/tmp/y", b"yyy", false, 1.0).unwrap();
    assert_eq!(
        err(s.rename("/tmp/d", "/tmp/e/d", ("/tmp/d", "/tmp/e/d"))),
        "ENOENT: no such file or directory, mv '/tmp/e/d'"
    );
    s.mkdir("/tmp/e", "/tmp/e", false, 1.0).unwrap();
    s.rename("/tmp/d", "/tmp/e/d", ("/tmp/d", "/tmp/e/d")).unwrap();
    assert_eq!(&*s.read("/tmp/e/d/x", "x").unwrap(), b"xx");
    assert!(!s.exists("/tmp/d"));
    s.rename("/tmp/y", "/tmp/e/d/x", ("/tmp/y", "/tmp/e/d/x")).unwrap();
    assert_eq!(s.used(), 3, "the file moved over is gone");
    assert_eq!(
        err(s.rename("/tmp/e", "/tmp/e/f", ("/tmp/e", "/tmp/e/f"))),
        "EINVAL: invalid argument, mv '/tmp/e': cannot move '/tmp/e' into itself, '/tmp/e/f'"
    );
    assert_eq!(err(s.rm("/tmp", "/tmp", true, false)), "EBUSY: resource busy or locked, rm '/tmp'");
    assert!(s.exists("/tmp") && s.readdir("/tmp", "/tmp").unwrap().is_empty(), "rm -r of the root empties it");
    s.chmod("/tmp", "/tmp", 0o700).unwrap();
    s.utimes("/tmp", "/tmp", 9.0).unwrap();
    assert_eq!(s.stat("/tmp", "/tmp", "stat").unwrap().mode, 0o700);
}

#[test]
fn saved_content_reads_back_under_any_root_and_bad_bytes_change_nothing() {
    let mut s = scratch(100);
    s.mkdir("/tmp/d/e", "/tmp/d/e", true, 2.0).unwrap();
    s.write("/tmp/d/e/f", "f", b"deep\n", false, 3.0).unwrap();
    s.write("/tmp/a-b", "a", b"\0bin\xff", false, 4.0).unwrap();
    s.chmod("/tmp/a-b", "a", 0o600).unwrap();
    let saved = s.save();
    let mut t = Scratch::new("/scratch", 100, 9.0);
    t.restore(Some(&saved), 9.0).unwrap();
    assert_eq!(&*t.read("/scratch/d/e/f", "f").unwrap(), b"deep\n");
    let st = t.stat("/scratch/a-b", "a", "stat").unwrap();
    assert_eq!((st.mode, st.mtime_ms, st.size), (0o600, 4.0, 5));
    assert_eq!(t.readdir("/scratch", "/").unwrap(), [("a-b".to_string(), false), ("d".to_string(), true)]);
    assert_eq!(t.used(), 10);
    assert_eq!(t.save(), saved, "saving again gives the same bytes");

    let mut small = Scratch::new("/tmp", 5, 1.0);
    small.write("/tmp/keep", "k", b"k", false, 1.0).unwrap();
    let mut bad = vec![saved[..saved.len() - 1].to_vec(), b"XFS1".to_vec(), saved.clone()];
    bad[2][9 + 4 + 4] = 0xff; // the root's path length: far past the end
    let mut escape = b"CFS1".to_vec();
    for (kind, rel) in [(0u8, ""), (1u8, "../etc")] {
        escape.push(kind);
        escape.extend_from_slice(&0o644u32.to_le_bytes());
        escape.extend_from_slice(&0f64.to_le_bytes());
        escape.extend_from_slice(&(rel.len() as u32).to_le_bytes());
        escape.extend_from_slice(rel.as_bytes());
    }
    escape.extend_from_slice(&0u32.to_le_bytes());
    bad.push(escape);
    for b in bad.iter().chain([&saved]) {
        let e = err(small.restore(Some(b), 1.0));
        assert!(e.starts_with("EINVAL: invalid argument, restore 'scratch': saved scratch state: "), "{e}");
    }
    assert_eq!(&*small.read("/tmp/keep", "k").unwrap(), b"k", "a refused state changes nothing");
    small.restore(None, 1.0).unwrap();
    assert!(small.readdir("/tmp", "/tmp").unwrap().is_empty() && small.used() == 0);
}
