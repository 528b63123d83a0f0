//! Helpers shared by the integration tests that run the `sizer` binary. Each test crate uses
//! some of them, hence `dead_code` is allowed.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// The crate root: the binary runs there, so relative fixture paths are stable in its output.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `sizer ARGS…` in the crate root.
pub fn sizer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sizer"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run sizer")
}

/// Standard output as UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error as UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
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
    crate::common::corpus_absent(p);
}
