//! Golden outputs: what `sizer` prints for every file of `../shared/corpus` and `fixtures/`, for
//! directory batches and for `sizer tiers`, compared byte for byte with the copies checked in
//! under `tests/golden/`.
//!
//! Each golden file holds one run: the command line, the exit status, standard error and standard
//! output. A run whose output differs fails the test, which lists every differing run with its
//! first differing line and writes the new output beside the golden one as `*.new` (ignored by
//! git). When a change of output is intended, rewrite the copies with
//! `SIZER_BLESS=1 cargo test --test golden` and review the diff before committing it.
//!
//! The corpus lives beside the project. When it is absent the corpus runs are skipped with a
//! message, unless `CI` is set, when that is a failure.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::common::root;

/// One run of the binary: its arguments (relative to the crate root) and the golden file name.
struct Case {
    args: Vec<String>,
    golden: PathBuf,
}

/// Every file below `dir` (relative to the crate root), sorted, as paths relative to the root.
fn files_below(dir: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root().join(dir)];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(root()).expect("below the root");
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// A golden file name for a run: the input path with `/` as `__` and the leading `../shared/`
/// dropped, then the variant.
fn golden_name(input: &str, variant: &str) -> PathBuf {
    let stem = input
        .trim_start_matches("../shared/")
        .trim_end_matches('/')
        .replace('/', "__");
    root()
        .join("tests/golden")
        .join(format!("{stem}.{variant}"))
}

fn cases(corpus: bool) -> Vec<Case> {
    let mut inputs = files_below("fixtures");
    if corpus {
        inputs.extend(files_below("../shared/corpus"));
    }
    let mut cases = Vec::new();
    for f in &inputs {
        cases.push(Case {
            args: vec!["analyze".into(), f.clone()],
            golden: golden_name(f, "md"),
        });
        // A collector capture's JSON holds every snapshot's figures (8 MB for a week of a
        // 2-node RAC): its values are checked by `collectors.rs` against EXPECTED.jsonl, and its
        // Markdown golden stays.
        if f.contains("/collectors/") && !f.starts_with("fixtures/") {
            continue;
        }
        cases.push(Case {
            args: vec![
                "analyze".into(),
                "--format".into(),
                "json".into(),
                f.clone(),
            ],
            golden: golden_name(f, "json"),
        });
    }
    // Directory batches, with the options that take other roads through the engine.
    let mut batches: Vec<(&str, Vec<&str>, &str)> = vec![
        ("fixtures", vec![], "batch.md"),
        ("fixtures", vec!["--format", "json"], "batch.json"),
        (
            "fixtures",
            vec![
                "--size-on",
                "max",
                "--headroom",
                "40",
                "--capacity",
                "2TiB",
                "--target",
                "aws,azure",
                "--instance",
                "r5.4xlarge",
                "--hana-checks",
                "--devices",
                "all",
                "--format",
                "json",
            ],
            "batch-options.json",
        ),
    ];
    if corpus {
        batches.extend([
            ("../shared/corpus/awr", vec![], "batch.md"),
            (
                "../shared/corpus/awr",
                vec!["--format", "json"],
                "batch.json",
            ),
            // The whole corpus in Markdown only: its JSON would be 20 MB of collector snapshots
            // (the JSON batches above and the per-file goldens cover the JSON).
            ("../shared/corpus", vec![], "batch.md"),
            (
                "../shared/corpus",
                vec![
                    "--size-on",
                    "p99",
                    "--capacity",
                    "500GiB",
                    "--target",
                    "gcp,onprem",
                    "--iostat-y",
                    "--date-order",
                    "dmy",
                    "--hana-checks",
                ],
                "batch-options.md",
            ),
        ]);
    }
    for (dir, opts, variant) in batches {
        let mut args = vec!["analyze".to_string()];
        args.extend(opts.iter().map(|s| s.to_string()));
        args.push(format!("{dir}/"));
        cases.push(Case {
            args,
            golden: golden_name(&format!("{dir}/"), variant),
        });
    }
    for (opts, variant) in [
        (vec![], "tiers.md"),
        (vec!["--format", "json"], "tiers.json"),
        (vec!["--target", "azure"], "tiers-azure.md"),
    ] {
        let mut args = vec!["tiers".to_string()];
        args.extend(opts.iter().map(|s| s.to_string()));
        cases.push(Case {
            args,
            golden: root().join("tests/golden").join(variant),
        });
    }
    cases
}

/// The text a run is compared by: command line, exit status, stderr, stdout.
fn run(case: &Case) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_sizer"))
        .args(&case.args)
        .current_dir(root())
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("run sizer");
    let mut s = String::new();
    writeln!(s, "$ sizer {}", case.args.join(" ")).unwrap();
    writeln!(s, "exit: {:?}", o.status.code()).unwrap();
    writeln!(s, "--- stderr").unwrap();
    s.push_str(&String::from_utf8_lossy(&o.stderr));
    writeln!(s, "--- stdout").unwrap();
    s.push_str(&String::from_utf8_lossy(&o.stdout));
    s
}

/// Splits a text into its numbers and the text between them.
fn numbers_and_text(s: &str) -> (Vec<f64>, Vec<&str>) {
    let b = s.as_bytes();
    let (mut nums, mut text) = (Vec::new(), Vec::new());
    let (mut i, mut last) = (0, 0);
    while i < b.len() {
        let starts_number = b[i].is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'));
        if !starts_number {
            i += 1;
            continue;
        }
        let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
        let mut j = i;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j + 1 < b.len() && b[j] == b'.' && b[j + 1].is_ascii_digit() {
            j += 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
        }
        if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
            let mut k = j + 1;
            if k < b.len() && (b[k] == b'-' || b[k] == b'+') {
                k += 1;
            }
            if k < b.len() && b[k].is_ascii_digit() {
                while k < b.len() && b[k].is_ascii_digit() {
                    k += 1;
                }
                j = k;
            }
        }
        if let Ok(v) = s[start..j].parse::<f64>() {
            text.push(&s[last..start]);
            nums.push(v);
            last = j;
        }
        i = j;
    }
    text.push(&s[last..]);
    (nums, text)
}

/// Equal outputs, or outputs whose text is equal and whose numbers differ only in the last bits
/// of a full-precision float (relative 1e-12): sums over rows of equal values in another order.
/// A figure printed to fewer digits that changes is a difference.
fn same_output(old: &str, new: &str) -> bool {
    if old == new {
        return true;
    }
    let (a, ta) = numbers_and_text(old);
    let (b, tb) = numbers_and_text(new);
    ta == tb
        && a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|(x, y)| x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs()))
}

fn first_difference(old: &str, new: &str) -> String {
    for (i, (a, b)) in old.lines().zip(new.lines()).enumerate() {
        if a != b {
            let clip = |t: &str| t.chars().take(200).collect::<String>();
            return format!(
                "line {}:\n      golden: {}\n      now:    {}",
                i + 1,
                clip(a),
                clip(b)
            );
        }
    }
    format!(
        "lengths differ: {} lines golden, {} now",
        old.lines().count(),
        new.lines().count()
    )
}

#[test]
fn golden_outputs() {
    let corpus_dir = root().join("../shared/corpus");
    let corpus = corpus_dir.is_dir();
    if !corpus {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but the corpus is missing at {}",
            corpus_dir.display()
        );
        eprintln!(
            "SKIPPED (corpus runs): corpus not found at {} (clone with ../shared beside the project)",
            corpus_dir.display()
        );
    }
    let bless = std::env::var_os("SIZER_BLESS").is_some();
    let cases = cases(corpus);
    std::fs::create_dir_all(root().join("tests/golden")).unwrap();

    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                let now = run(case);
                let new_path = case.golden.with_extension(format!(
                    "{}.new",
                    case.golden.extension().unwrap().to_string_lossy()
                ));
                if bless {
                    std::fs::write(&case.golden, &now).unwrap();
                    let _ = std::fs::remove_file(&new_path);
                    continue;
                }
                match std::fs::read_to_string(&case.golden) {
                    Ok(old) if same_output(&old, &now) => {
                        let _ = std::fs::remove_file(&new_path);
                    }
                    Ok(old) => {
                        std::fs::write(&new_path, &now).unwrap();
                        failures.lock().unwrap().push(format!(
                            "{}: {}",
                            case.golden.display(),
                            first_difference(&old, &now)
                        ));
                    }
                    Err(_) => {
                        std::fs::write(&new_path, &now).unwrap();
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{}: no golden copy", case.golden.display()));
                    }
                }
            });
        }
    });

    // A golden copy whose run no longer exists is a failure too (an input was renamed or lost).
    let expected: std::collections::HashSet<&Path> =
        cases.iter().map(|c| c.golden.as_path()).collect();
    let mut stale = Vec::new();
    if corpus {
        for entry in std::fs::read_dir(root().join("tests/golden"))
            .unwrap()
            .flatten()
        {
            let p = entry.path();
            if p.extension().is_some_and(|e| e == "new") {
                continue;
            }
            if !expected.contains(p.as_path()) {
                if bless {
                    std::fs::remove_file(&p).unwrap();
                } else {
                    stale.push(p.display().to_string());
                }
            }
        }
    }
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    assert!(
        failures.is_empty() && stale.is_empty(),
        "{} of {} golden outputs differ (new output written beside each as *.new; \
         SIZER_BLESS=1 rewrites them when the change is intended):\n{}\n\
         golden copies without a run: {:?}",
        failures.len(),
        cases.len(),
        failures.join("\n"),
        stale
    );
    eprintln!("{} golden outputs match", cases.len());
}
