//! The sections of an AWR HTML report the parser never reads, whose rows the HTML scanner
//! skips ([`html::parse_skipping`](crate::html::parse_skipping)).
//!
//! A 19c report spends about a quarter to 40 % of its bytes on tables no figure reads: the SQL
//! statement texts and `SQL ordered by …` lists, latch statistics, advisories, memory and cache
//! statistics. Collecting their ~10,000 cells was about a quarter of the scanner's time in a
//! fleet run (`docs/performance.md`, "Fleet CPU"). A section is left out only by the start of
//! its `summary`, so 10.2 and 11.1 reports (no summaries) are read whole, and no section the
//! parser looks for (by summary, heading or columns) starts like one of these: the tests parse
//! every corpus report and fixture both ways and require the same report.

/// Starts of the summaries (lower case, white space collapsed) of the sections never read.
const NEVER_READ: &[&str] = &[
    "this table displays the text of the sql statements",
    "this table displays top sql by",
    "this table displays latch statistics",
    "this table displays latch miss sources",
    "this table displays latch sleep statistics",
    "this table displays shared pool advisory",
    "this table displays mttr advisory",
    "this table displays pga memory advisory",
    "this table displays sga target advisory",
    "this table displays name and value of init.ora parameters",
    "this table displays memory dynamic component statistics",
    "this table displays dictionary cache statistics",
    "this table displays library cache statistics",
    "this table displays process memory summary",
    "this table displays sga breakdown difference",
    "this table displays global messaging statistics",
    "this table show the activity in ash over time",
];

/// Whether the table with this `summary` (white space collapsed, any case) is a section the
/// parser never reads.
pub(super) fn never_read(summary: &str) -> bool {
    let s = summary.as_bytes();
    NEVER_READ
        .iter()
        .any(|p| s.len() >= p.len() && s[..p.len()].eq_ignore_ascii_case(p.as_bytes()))
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::never_read;

    /// The `*.html` files under `dir`, sub-directories included.
    fn html_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                html_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "html") {
                out.push(p);
            }
        }
    }

    #[test]
    fn matches_by_the_start_of_the_summary_in_any_case() {
        assert!(never_read(
            "This table displays Latch statistics. Get requests, % get miss"
        ));
        assert!(never_read("This table displays top SQL by elapsed time"));
        assert!(!never_read("This table displays load profile"));
        assert!(!never_read(
            "This table displays enqueue activity statistics."
        ));
        assert!(!never_read(""));
    }

    /// Skipping the sections changes no report: every corpus report and fixture (HTML) gives the
    /// same record, warnings and errors included, with and without skipping, and the skipping
    /// does skip something in the 12c+ reports.
    #[test]
    fn skipping_changes_no_report() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let corpus = root.join("../../shared/corpus");
        if !corpus.is_dir() {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set but the corpus is missing: {}",
                corpus.display()
            );
            println!("SKIPPED: corpus not found ({})", corpus.display());
        }
        let mut files = Vec::new();
        html_files(&corpus, &mut files);
        html_files(&root.join("../fixtures"), &mut files);
        files.sort();
        let (mut compared, mut skipping) = (0, 0);
        for p in &files {
            let bytes = std::fs::read(p).expect("readable");
            let Ok(decoded) = crate::input::decode(&bytes) else {
                continue;
            };
            let text = &decoded.text;
            let skipped = crate::html::parse_skipping(text, &never_read)
                .tables
                .iter()
                .filter(|t| t.skipped())
                .count();
            skipping += usize::from(skipped > 0);
            let with = crate::awr::parse_in_its_locale(text, super::super::parse_c_locale);
            let without =
                crate::awr::parse_in_its_locale(text, super::super::parse_c_locale_every_table);
            assert_eq!(
                format!("{with:?}"),
                format!("{without:?}"),
                "{}: skipping {skipped} tables changed the report",
                p.display()
            );
            compared += 1;
        }
        println!("{compared} HTML files compared, {skipping} with skipped sections");
        assert!(compared >= 3, "only {compared} HTML files compared");
        if corpus.is_dir() {
            assert!(
                skipping >= 10,
                "only {skipping} reports had a skipped section"
            );
        }
    }
}
