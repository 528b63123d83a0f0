//! Normalising the texts that sections and rows are found by: table summaries, headings,
//! column names and row labels.

/// `s` with runs of white space made one space, trimmed, and ASCII-lower-cased.
pub(super) fn norm(s: &str) -> String {
    // The scanner's texts are already collapsed: then only the case changes (one allocation
    // instead of three; the tables' summaries and headings are normalised once per report).
    let b = s.as_bytes();
    let collapsed = b.is_ascii()
        && b.first() != Some(&b' ')
        && b.last() != Some(&b' ')
        && !b.windows(2).any(|w| w == b"  ")
        && !b
            .iter()
            .any(|&c| (c.is_ascii_whitespace() && c != b' ') || c == 0x0B);
    if collapsed {
        return s.to_ascii_lowercase();
    }
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

/// `s` with runs of white space made one space, trimmed, and without a trailing `:` (a row
/// label such as `Buffer Nowait %:`).
pub(super) fn label(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    s.trim_end_matches(':').trim().to_string()
}

/// Whether `hay` contains `needle` (ASCII, lower case) compared without ASCII case: what
/// `hay.to_ascii_lowercase().contains(needle)` says, without the copy.
pub(super) fn contains_ignore_case(hay: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let mut at = 0;
    while let Some(k) = memchr::memchr2(first, first.to_ascii_uppercase(), &hay[at..]) {
        let start = at + k + 1;
        if hay
            .get(start..start + rest.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(rest))
        {
            return true;
        }
        at = start;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The definition that [`norm`]'s fast path must agree with.
    fn norm_slow(s: &str) -> String {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_ascii_lowercase()
    }

    #[test]
    fn norm_examples() {
        assert_eq!(
            norm("This Table displays LOAD profile"),
            "this table displays load profile"
        );
        assert_eq!(norm(" Load\u{a0} Profile\t"), "load profile");
        assert_eq!(norm("a\x0Bb"), "a b");
        assert_eq!(norm(""), "");
        assert_eq!(label("  Buffer  Nowait %: "), "Buffer Nowait %");
    }

    #[test]
    fn contains_ignore_case_examples() {
        assert!(contains_ignore_case(
            b"x WORKLOAD Repository y",
            b"workload repository"
        ));
        assert!(contains_ignore_case(b"<TITLE>AWR Report", b"<title>awr "));
        assert!(!contains_ignore_case(
            b"workload repositor",
            b"workload repository"
        ));
        assert!(contains_ignore_case(b"", b""));
    }

    proptest! {
        #[test]
        fn contains_ignore_case_is_lowercase_contains(
            hay in "[aAbBwW<> ]{0,30}",
            needle in "[ab<]{1,4}",
        ) {
            let want = hay.to_ascii_lowercase().contains(needle.as_str());
            prop_assert_eq!(contains_ignore_case(hay.as_bytes(), needle.as_bytes()), want);
        }

        #[test]
        fn norm_fast_path_agrees(s in "[ a-zA-Z\t\n\r\x0B\x0C\u{a0}\u{2003}é:%]{0,24}") {
            prop_assert_eq!(norm(&s), norm_slow(&s));
        }
    }
}
