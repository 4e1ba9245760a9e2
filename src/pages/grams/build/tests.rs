use super::*;

fn access(public: bool, groups: &[&str]) -> Access {
    Access { is_public: public, groups: groups.iter().map(|g| g.to_string()).collect() }
}

fn pages<'a>(texts: &'a [(String, Access, String)]) -> Vec<Page<'a>> {
    texts.iter().map(|(slug, access, text)| Page { slug, access, text }).collect()
}

/// `n` pages of forty made-up words each, drawn from a vocabulary of a few thousand.
fn corpus(n: usize) -> Vec<(String, Access, String)> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let syllables =
        ["ka", "lo", "mi", "ne", "su", "ta", "re", "vo", "zi", "pu", "dra", "ghe", "qui", "xen", "wol", "fry"];
    (0..n)
        .map(|i| {
            let a = if i % 10 == 0 { access(false, &["staff"]) } else { access(true, &[]) };
            let words: Vec<String> = (0..40)
                .map(|_| {
                    let r = next();
                    (0..2 + r % 3).map(|k| syllables[((r >> (8 * k + 4)) % 16) as usize]).collect()
                })
                .collect();
            (format!("docs/p{i:04}.md"), a, format!("page {i}: {}\n", words.join(" ")))
        })
        .collect()
}

/// What the next ingest knows of this one.
fn previous(built: &Built, texts: &[(String, Access, String)], changed: &[&str]) -> Previous {
    Previous {
        manifest: built.manifest.clone(),
        pages: texts.iter().map(|(s, a, _)| (s.clone(), (built.numbers[s], a.clone()))).collect(),
        changed: changed.iter().map(|s| s.to_string()).collect(),
    }
}

#[test]
fn a_first_ingest_indexes_each_access_class_apart() {
    let texts = corpus(200);
    let built = build(&pages(&texts), None);
    assert_eq!(built.manifest.classes.len(), 2);
    assert!(built.manifest.classes.iter().all(|c| c.segments.len() == 1));
    let numbers: HashSet<u32> = built.numbers.values().copied().collect();
    assert_eq!(numbers.len(), 200, "one number a page");
    assert_eq!(built.manifest.pages, 200);
    assert!(built.records.iter().all(|(id, _)| crate::pages::grams::is_index_record(id)));
}

#[test]
fn a_one_page_edit_writes_a_small_segment_and_keeps_the_rest() {
    let mut texts = corpus(2000);
    let first = build(&pages(&texts), None);
    texts[5].2 = "an edited page, its words all new: zebra quokka\n".into();
    let prev = previous(&first, &texts, &["docs/p0005.md"]);
    let second = build(&pages(&texts), Some(&prev));
    assert_eq!(second.numbers, first.numbers, "numbers are kept");
    assert_eq!(second.records.len(), 1, "one record, of {}", first.records.len());
    let public = second.manifest.class(&access(true, &[])).unwrap();
    assert_eq!(public.segments.len(), 2);
    assert!(public.segments[1].covers);
    let staff = second.manifest.class(&access(false, &["staff"])).unwrap();
    assert_eq!(
        staff,
        first.manifest.class(&access(false, &["staff"])).unwrap(),
        "an unchanged class is kept as it was"
    );
    assert!(second.keeps(&second.records[0].0));
    assert!(!second.keeps("__grams__:s999:0:0"), "a segment no manifest names is stale");
    assert!(!second.keeps("docs/p0001.md#0"), "a chunk is not the index's");
    for s in &first.manifest.classes.iter().flat_map(|c| c.segments.iter()).map(|s| s.id.clone()).collect::<Vec<_>>() {
        assert!(second.kept.contains(s), "{s} kept");
    }
}

#[test]
fn small_segments_merge_into_a_new_base_when_they_grow() {
    let mut texts = corpus(300);
    let mut built = build(&pages(&texts), None);
    for round in 0..30 {
        let i = 1 + (round * 7) % 290;
        let i = if i % 10 == 0 { i + 1 } else { i };
        texts[i].2 = format!("round {round} rewrote this page with fresh words{round}\n");
        let prev = previous(&built, &texts, &[texts[i].0.as_str()]);
        built = build(&pages(&texts), Some(&prev));
        let public = built.manifest.class(&access(true, &[])).unwrap();
        assert!(public.segments.len() <= MAX_DELTAS + 1, "round {round}: {} segments", public.segments.len());
    }
}

#[test]
fn a_page_that_moves_class_or_goes_is_taken_over_from_its_old_class() {
    let texts = corpus(500);
    let first = build(&pages(&texts), None);
    let mut next = texts.clone();
    next[3].1 = access(false, &["staff"]);
    next.remove(7);
    let prev = Previous {
        manifest: first.manifest.clone(),
        pages: texts.iter().map(|(s, a, _)| (s.clone(), (first.numbers[s], a.clone()))).collect(),
        changed: HashSet::new(),
    };
    let second = build(&pages(&next), Some(&prev));
    let public = second.manifest.class(&access(true, &[])).unwrap();
    let last = public.segments.last().unwrap();
    assert!(last.covers, "the public class takes over the pages it lost");
    let first_record =
        second.records.iter().find(|(id, _)| *id == super::super::shard::record_id(&last.id, 0, 0)).unwrap();
    let bytes = crate::tree::codec::base64_decode(&first_record.1).unwrap();
    let (gram, range) = super::super::shard::read(&bytes).unwrap()[0].clone();
    assert_eq!(gram, super::super::shard::COVERS);
    let list = super::super::postings::decode(&bytes[range], u32::MAX).unwrap();
    assert_eq!(list, vec![first.numbers["docs/p0003.md"], first.numbers["docs/p0007.md"]]);
}

#[test]
fn pairs_sort_by_piece_and_keep_each_piece_s_pages_in_order() {
    let mut pairs: Vec<u64> = Vec::new();
    let mut state = 7u64;
    for page in 0..2000u64 {
        for _ in 0..5 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pairs.push((state >> 40) << 32 | page);
        }
    }
    let mut want = pairs.clone();
    want.sort_by_key(|p| p >> 32); // stable: pages stay ascending within a piece
    super::sort_by_piece(&mut pairs);
    assert_eq!(pairs, want);
    let mut same = vec![5u64 << 32 | 2, 5 << 32 | 1];
    super::sort_by_piece(&mut same);
    assert_eq!(same, [5 << 32 | 2, 5 << 32 | 1], "one piece: nothing moves");
}
