//! Helpers shared by the parsers' integration tests (fixture paths, parsing, comparisons).
#![allow(dead_code)] // each test crate uses a subset

use std::path::{Path, PathBuf};

use sizer_parsers::awr::AwrReport;
use sizer_parsers::{parse_bytes, parse_file, ParseError, Parsed};

pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(rel)
}

pub fn awr(rel: &str) -> AwrReport {
    match parse_file(&fixture(rel)) {
        Ok(Parsed::Awr(r)) => *r,
        Ok(other) => panic!("{rel}: not an AWR report: {other:?}"),
        Err(e) => panic!("{rel}: {e}"),
    }
}

pub fn parse_str(s: &str) -> Result<AwrReport, ParseError> {
    match parse_bytes(s.as_bytes()) {
        Ok(Parsed::Awr(r)) => Ok(*r),
        Ok(other) => panic!("not an AWR report: {other:?}"),
        Err(e) => Err(e),
    }
}

#[track_caller]
pub fn close(a: Option<f64>, b: f64, what: &str) {
    let a = a.unwrap_or_else(|| panic!("{what}: unknown, expected {b}"));
    assert!(
        (a - b).abs() <= 1e-9 * b.abs().max(1.0),
        "{what}: got {a}, expected {b}"
    );
}

/// The shared corpus's AWR folder (`../shared/corpus/awr` beside the project), or `None` with a
/// `SKIPPED` message when it is absent.
pub fn awr_corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/awr");
    if dir.is_dir() {
        Some(dir)
    } else {
        crate::common::corpus_absent(&dir);
        None
    }
}

/// Says that a corpus file or folder is absent: under CI (`CI` set) that is a failure, since CI
/// runs with `../shared` beside the clone; elsewhere the calling test prints SKIPPED and returns.
///
/// # Panics
/// When `CI` is set.
pub fn corpus_absent(p: &std::path::Path) {
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set but the corpus is missing: {} (CI runs with ../shared beside the clone)",
        p.display()
    );
    println!("SKIPPED: corpus not found ({})", p.display());
}

/// A path under the shared corpus (`../shared/corpus` beside the project).
pub fn shared(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(rel)
}
