use super::*;

fn href(input: &str) -> Result<String, UrlError> {
    Url::parse(input).map(|u| u.to_string())
}

fn joined(base: &str, input: &str) -> Result<String, UrlError> {
    Url::parse(base).unwrap().join(input).map(|u| u.to_string())
}

#[test]
fn the_authority_ends_where_fetch_ends_it() {
    assert_eq!(href("http://127.0.0.1:1\\@127.0.0.1:2/x").as_deref(), Ok("http://127.0.0.1:1/@127.0.0.1:2/x"));
    assert_eq!(
        href("https://127.0.0.1:9\\@example.com/spec.json").as_deref(),
        Ok("https://127.0.0.1:9/@example.com/spec.json")
    );
    assert_eq!(href("http://a.test?x@b.test/").as_deref(), Ok("http://a.test/?x@b.test/"));
    assert_eq!(href("http://a.test#@b.test/").as_deref(), Ok("http://a.test/"));
    assert_eq!(href("HTTP:\\\\/A.Test:0080\\p").as_deref(), Ok("http://a.test/p"));
    assert_eq!(href("http:a.test").as_deref(), Ok("http://a.test/"));
    assert_eq!(href(" \u{1}http://a.test/\t x\n \u{0} ").as_deref(), Ok("http://a.test/%20x"));
    assert_eq!(href("http://a.te\tst:8\n0/").as_deref(), Ok("http://a.test/"));
    assert_eq!(href("https://[::1]:443/").as_deref(), Ok("https://[::1]/"));
    assert_eq!(href("http://a.test:65535").as_deref(), Ok("http://a.test:65535/"));
    assert_eq!(href("http://a.test:/").as_deref(), Ok("http://a.test/"));
    assert_eq!(href("http://a.test/a/./b/../c/%2e%2E/d?q=<'\">#f").as_deref(), Ok("http://a.test/a/d?q=%3C%27%22%3E"));
}

#[test]
fn what_fetch_refuses_or_chromafs_will_not_send_is_refused() {
    for bad in [
        "http://",
        "http://:80/",
        "http://a.test:65536/",
        "http://a.test:8x/",
        "http://a b/",
        "http://[::1/",
        "http://1.2.3.256/",
        "http://a.0x/",
        "http:",
    ] {
        assert_eq!(href(bad), Err(UrlError::Invalid), "{bad:?}");
    }
    for userinfo in
        ["http://u:p@a.test/", "http://@a.test/", "http://a.test@/", "http://u@a.test\\@b.test/", "http://a:1@a:1/"]
    {
        assert_eq!(href(userinfo), Err(UrlError::Userinfo), "{userinfo:?}");
    }
    assert_eq!(href("ftp://a.test/"), Err(UrlError::Scheme));
    assert_eq!(href("javascript:alert(1)"), Err(UrlError::Scheme));
    assert_eq!(href("http://exämple.test/"), Err(UrlError::International));
    assert_eq!(href("/relative"), Err(UrlError::Relative));
    assert!(UrlError::Userinfo.is_policy() && !UrlError::Invalid.is_policy());
}

#[test]
fn locations_resolve_against_the_request() {
    let base = "http://a.test:8000/api/v2/x/get?q=1";
    for (location, want) in [
        ("", "http://a.test:8000/api/v2/x/get?q=1"),
        ("#frag", "http://a.test:8000/api/v2/x/get?q=1"),
        ("?r=2", "http://a.test:8000/api/v2/x/get?r=2"),
        ("next", "http://a.test:8000/api/v2/x/next"),
        ("../up", "http://a.test:8000/api/v2/up"),
        ("/root", "http://a.test:8000/root"),
        ("\\root", "http://a.test:8000/root"),
        ("//b.test/p", "http://b.test/p"),
        ("\\\\b.test\\p", "http://b.test/p"),
        ("/\\b.test", "http://b.test/"),
        ("http:rel", "http://a.test:8000/api/v2/x/rel"),
        ("http:/abs", "http://a.test:8000/abs"),
        ("http:\\\\b.test", "http://b.test/"),
        ("http://b.test", "http://b.test/"),
        ("https:b.test/p", "https://b.test/p"),
        ("1abc:x", "http://a.test:8000/api/v2/x/1abc:x"),
    ] {
        assert_eq!(joined(base, location).as_deref(), Ok(want), "{location:?}");
    }
    assert_eq!(joined(base, "//u@b.test/"), Err(UrlError::Userinfo));
    assert_eq!(joined(base, "mailto:x@y"), Err(UrlError::Scheme));
}

#[test]
fn messages_show_no_query_and_no_credentials() {
    assert_eq!(
        Url::parse("https://cdn.test/a.json?X-Amz-Signature=s#f").unwrap().shown(),
        "https://cdn.test/a.json?[redacted]"
    );
    assert_eq!(Url::parse("https://cdn.test/a.json?").unwrap().shown(), "https://cdn.test/a.json");
    assert_eq!(redact("https://alice:pw@cdn.test/a.json?sig=s"), "\"https://cdn.test/a.json?[redacted]\"");
    assert_eq!(redact("//alice:pw@b@cdn.test\\x"), "\"//cdn.test\\\\x\"");
    assert_eq!(redact("ftp://cdn.test/x#y"), "\"ftp://cdn.test/x\"");
}
