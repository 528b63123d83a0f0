//! The fuzz harness (issue 14 item 6): a proptest mutation suite for every parser of the
//! registry, seeded from real files and sized through the library.
//!
//! # Flow
//! For each format of `sizer_parsers::registry::PARSERS`, [`seeds`] picks a few real files of
//! that format from `../shared/corpus/` and `fixtures/` (read at run time, never copied). Each
//! case draws a seed and one to four [`mutate::Mutation`]s (byte flips, truncation, line
//! duplication and deletion, number cells replaced by `NaN`, `inf`, `1e308`, `-1`, 40 digits,
//! a decimal comma or nothing, column shifts, CRLF, UTF-16), and [`check::case`] parses the
//! mutant, runs `sizer::pipeline` on it as a file and renders the JSON and the Markdown.
//! A panic or a broken property fails the case, and proptest shrinks it to a minimal mutant.
//! The properties that were soft until issue 14 (a NaN or infinite figure, a sizing on 0, an
//! unlocated section error) fail the case too (`FUZZ_STRICT=0` only counts and prints them).
//!
//! # Running
//! `cargo test --test fuzz` runs 64 cases per parser, deterministically (a fixed ChaCha seed
//! per format, no failure persistence), as part of the test suite. `scripts/fuzz.sh` runs
//! 10,000 or more per parser in release mode (`PROPTEST_CASES`), one parser at a time, and
//! prints each parser's cases, failures and time. See [`hard_kinds`] for which soft
//! properties fail a case.
//! This is its own test binary, not a module
//! of `tests/it`, so that the release build compiles the harness and not every test.

mod check;
#[path = "../it/common.rs"]
mod common;
mod finite;
mod mutate;
mod regressions;
mod seeds;

use std::time::{Duration, Instant};

use proptest::test_runner::{Config, RngAlgorithm, TestError, TestRng, TestRunner};
use sizer_parsers::Format;

/// Cases per parser when `PROPTEST_CASES` is not set (the CI run).
const CI_CASES: u32 = 64;

/// Cases per parser: `PROPTEST_CASES`, else [`CI_CASES`].
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CI_CASES)
}

/// A fixed RNG seed per format (its id, padded), so every run draws the same cases.
fn rng(format: Format) -> TestRng {
    let mut seed = [0u8; 32];
    for (s, b) in seed.iter_mut().zip(format.id().bytes()) {
        *s = b;
    }
    TestRng::from_seed(RngAlgorithm::ChaCha, &seed)
}

/// Which soft kinds fail the case: by default every kind (a NaN or infinite figure, a sizing on
/// 0, an unlocated section error: since the last one, a header that lost a column, was fixed,
/// docs/reliability.md "The second run"); `FUZZ_STRICT=0` none (they are only counted).
fn hard_kinds() -> fn(&str) -> bool {
    match std::env::var("FUZZ_STRICT").as_deref() {
        Ok("0") => |_| false,
        _ => |_| true,
    }
}

/// Runs the mutation suite of one format and prints one summary line:
/// `fuzz FORMAT: cases N, failures F, soft S (…), T s, slowest case T s`.
fn fuzz(format: Format) {
    let seeds = seeds::seeds(format);
    if seeds.is_empty() {
        let corpus = seeds::corpus_dir();
        if !corpus.exists() {
            common::corpus_absent(&corpus);
            return;
        }
        panic!(
            "no seed of format {} in the corpus or fixtures/",
            format.id()
        );
    }
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        // A shrink step runs the engine once; a few hundred is enough to reach a small mutant.
        max_shrink_iters: 512,
        ..Config::default()
    };
    let dir = tempfile::Builder::new()
        .prefix(&format!("fuzz-{}-", format.id()))
        .tempdir()
        .expect("a temporary directory");
    let soft = std::cell::RefCell::new(check::Soft::default());
    let runs = std::cell::Cell::new(0u64);
    let slowest = std::cell::Cell::new(Duration::ZERO);
    let hard = hard_kinds();
    let count_hard = |soft: &check::Soft| -> usize {
        soft.kinds
            .iter()
            .filter(|(k, _)| hard(k))
            .map(|(_, (n, _))| n)
            .sum()
    };
    let mut runner = TestRunner::new_with_rng(config, rng(format));
    let start = Instant::now();
    let result = runner.run(&mutate::case(), |(pick, mutations)| {
        let seed = seeds[pick.index(seeds.len())];
        let bytes = mutate::apply(&seed.bytes, &mutations);
        // The seed's own file name, less `.gz` (seeds are decoded), so names read as the user's.
        let name = std::path::Path::new(&seed.name)
            .file_name()
            .map(|n| n.to_string_lossy().trim_end_matches(".gz").to_string())
            .unwrap_or_else(|| "case".into());
        let t = Instant::now();
        let mut soft = soft.borrow_mut();
        soft.current = format!("seed {}, mutations {mutations:?}", seed.name);
        let before = count_hard(&soft);
        let mut r = check::case(&dir.path().join(name), &bytes, &mut soft);
        let after: usize = soft.kinds.values().map(|(n, _)| n).sum();
        if r.is_ok() && count_hard(&soft) > before {
            r = Err(proptest::test_runner::TestCaseError::fail(format!(
                "a soft finding that fails the case (FUZZ_STRICT): {:?}",
                soft.kinds.keys().filter(|k| hard(k)).collect::<Vec<_>>()
            )));
        }
        slowest.set(slowest.get().max(t.elapsed()));
        runs.set(runs.get() + 1);
        // A run cut short (time limit, memory cap) still says how far it got.
        if runs.get().is_multiple_of(1000) {
            eprintln!(
                "fuzz {}: progress {} cases, soft {after}, {:.1} s",
                format.id(),
                runs.get(),
                start.elapsed().as_secs_f64()
            );
        }
        r
    });
    let elapsed = start.elapsed();
    let soft = soft.into_inner();
    let soft_total: usize = soft.kinds.values().map(|(n, _)| n).sum();
    let failures = usize::from(result.is_err());
    eprintln!(
        "fuzz {}: cases {}, failures {failures}, soft {soft_total}, {:.1} s, slowest case {:.2} s, seeds {}",
        format.id(),
        runs.get(),
        elapsed.as_secs_f64(),
        slowest.get().as_secs_f64(),
        seeds.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(" "),
    );
    for (kind, (n, first)) in &soft.kinds {
        let first: String = first.chars().take(1200).collect();
        eprintln!(
            "fuzz {}:   soft {kind}: {n} cases; first: {first}",
            format.id()
        );
    }
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, (pick, mutations))) => {
            let seed = seeds[pick.index(seeds.len())];
            let mutant = mutate::apply(&seed.bytes, &mutations);
            panic!(
                "fuzz {}: {why}\nminimal case: seed {}, mutations {mutations:?}\n{}",
                format.id(),
                seed.name,
                first_change(&seed.bytes, &mutant)
            );
        }
        Err(e) => panic!("fuzz {}: {e}", format.id()),
    }
}

/// Where `mutant` first differs from `seed`: its line number and that line of each, to write a
/// regression test from.
fn first_change(seed: &[u8], mutant: &[u8]) -> String {
    let at = seed
        .iter()
        .zip(mutant)
        .position(|(a, b)| a != b)
        .unwrap_or(seed.len().min(mutant.len()));
    let line_of = |b: &[u8]| {
        let start = b[..at.min(b.len())]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |k| k + 1);
        let end = b[start..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |k| start + k);
        String::from_utf8_lossy(&b[start..end]).into_owned()
    };
    let line = seed[..at.min(seed.len())]
        .iter()
        .filter(|&&c| c == b'\n')
        .count()
        + 1;
    format!(
        "first change at byte {at}, line {line}:\n  seed:   {:?}\n  mutant: {:?}\n  (lengths {} and {})",
        line_of(seed),
        line_of(mutant),
        seed.len(),
        mutant.len()
    )
}

/// One `#[test]` per format of the registry, named by its id (`cargo test --test fuzz
/// mutants::awr_text`); a test checks that the list is the registry's.
macro_rules! per_format {
    ($( $name:ident => $variant:ident, )+) => {
        mod mutants {
            $(
                #[test]
                fn $name() {
                    super::fuzz(sizer_parsers::Format::$variant);
                }
            )+
            /// The formats listed here, in registry order.
            pub const LISTED: &[sizer_parsers::Format] = &[$( sizer_parsers::Format::$variant, )+];
            /// The test names, as the registry ids.
            pub const NAMES: &[&str] = &[$( stringify!($name), )+];
        }
    };
}

per_format! {
    awr_text => AwrText,
    statspack => Statspack,
    awr_html => AwrHtml,
    awr_miner => AwrMiner,
    dma_archive => DmaArchive,
    esxtop_csv => EsxtopCsv,
    vsan_soap => VsanSoap,
    vsan_json => VsanJson,
    telegraf_vsan => TelegrafVsan,
    powercli_csv => PowercliCsv,
    hcibench => Hcibench,
    sadf_json => SadfJson,
    iostat_json => IostatJson,
    sadf_csv => SadfCsv,
    oswatcher => OsWatcher,
    nmon => Nmon,
    sar_text => SarText,
    iostat_text => IostatText,
    aix_iostat => AixIostat,
    solaris_iostat => SolarisIostat,
}

/// Every parser of the registry has its mutation test, named by its id.
#[test]
fn every_registry_format_is_fuzzed() {
    let registry: Vec<Format> = sizer_parsers::registry::formats()
        .map(|f| f.format)
        .collect();
    assert_eq!(mutants::LISTED, registry.as_slice());
    let ids: Vec<&str> = registry.iter().map(|f| f.id()).collect();
    assert_eq!(mutants::NAMES, ids.as_slice());
}

/// Every format has a seed, and each seed unmutated meets every hard property and, when its
/// tree has a clean file at all, the soft ones too (so a soft finding is the mutation's doing).
#[test]
fn every_format_has_seeds_that_pass_unmutated() {
    let corpus = seeds::corpus_dir();
    if !corpus.exists() {
        common::corpus_absent(&corpus);
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut unclean = Vec::new();
    for f in sizer_parsers::registry::formats() {
        let seeds = seeds::seeds(f.format);
        assert!(!seeds.is_empty(), "no seed of {}", f.id);
        for s in seeds {
            let mut soft = check::Soft::default();
            let name = std::path::Path::new(&s.name).file_name().unwrap();
            check::case(&dir.path().join(name), &s.bytes, &mut soft)
                .unwrap_or_else(|e| panic!("{} ({}): {e}", s.name, f.id));
            if !soft.kinds.is_empty() {
                eprintln!("seed {} ({}) is not clean: {:?}", s.name, f.id, soft.kinds);
                unclean.push(s.name.clone());
            }
        }
    }
    assert_eq!(
        unclean,
        Vec::<String>::new(),
        "seeds with soft findings unmutated"
    );
}
