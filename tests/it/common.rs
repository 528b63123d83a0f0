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
    eprintln!(
        "SKIPPED: corpus not found at {} (clone with ../shared beside the project to run these checks)",
        p.display()
    );
}

/// `../shared/corpus/SUB/FILE`, or `None` after [`corpus_absent`] (which fails under `CI`).
pub fn corpus_file(sub: &str, file: &str) -> Option<std::path::PathBuf> {
    let p = root().join("../shared/corpus").join(sub).join(file);
    if p.is_file() {
        Some(p)
    } else {
        corpus_absent(&p);
        None
    }
}

/// (the report, its database) of the JSON document `sizer analyze --format json` gives for one
/// file, through the library with the built-in rules; panics if the file fails.
pub fn json_of(path: &Path) -> (serde_json::Value, serde_json::Value) {
    let rules = sizer::rules::RuleSet::builtin().expect("built-in rules load");
    let run =
        sizer::pipeline::run(&[path], &rules, &sizer::settings::Settings::default()).expect("run");
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    let mut buf = Vec::new();
    sizer::report::json(&run, &mut buf).expect("json renders");
    let doc: serde_json::Value = serde_json::from_slice(&buf).expect("JSON");
    (doc["reports"][0].clone(), doc["databases"][0].clone())
}

/// Asserts that `o` exited with `code` and did not panic, showing the exit, the stderr and the
/// head of the stdout when it did not.
#[track_caller]
pub fn assert_exit(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "exit status {:?}\n--- stderr:\n{}\n--- stdout (head):\n{}",
        o.status,
        stderr(o),
        stdout(o).chars().take(2000).collect::<String>()
    );
    assert!(!stderr(o).contains("panicked"), "panic: {}", stderr(o));
}
