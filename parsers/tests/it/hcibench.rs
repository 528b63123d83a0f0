//! The HCIBench result-summary parser on the real samples embedded in
//! `../shared/corpus/vsan/cleeistaken_Test-Profiles_Curve_README_hcibench_results.md` (read in
//! place, never copied) and on the hand-made fixtures in `fixtures/hcibench/` (see its README).
//!
//! The corpus file is a markdown document: each result summary sits in a ```` ``` ```` code
//! block. The tests extract the code blocks and parse each one as a `-res.txt` excerpt; every
//! real value below was read by hand from the cited block.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use sizer_parsers::entity::{EntityLog, Measure, Series};
use sizer_parsers::hcibench::{looks_like, parse};
use sizer_parsers::ParseError;

const CORPUS: &str = "cleeistaken_Test-Profiles_Curve_README_hcibench_results.md";
const MIB: f64 = 1_048_576.0;

fn shared(rel: &str) -> PathBuf {
    crate::common::shared("vsan").join(rel)
}

fn fix_text(rel: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures/hcibench")
            .join(rel),
    )
    .unwrap()
}

fn fix(rel: &str) -> EntityLog {
    let text = fix_text(rel);
    assert!(looks_like(&text), "{rel}: not recognised");
    parse(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The code blocks of the corpus markdown (heading, block text), or `None` (after printing
/// SKIPPED) when the corpus is absent.
fn corpus_blocks() -> Option<Vec<(String, String)>> {
    let p = shared(CORPUS);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return None;
    }
    let md = std::fs::read_to_string(&p).unwrap();
    let mut blocks = Vec::new();
    let (mut heading, mut inside, mut cur) = (String::new(), false, String::new());
    for line in md.lines() {
        if line.starts_with("```") {
            if inside {
                blocks.push((heading.clone(), std::mem::take(&mut cur)));
            }
            inside = !inside;
        } else if inside {
            cur.push_str(line);
            cur.push('\n');
        } else if line.starts_with('#') {
            heading = line.trim_start_matches('#').trim().to_string();
        }
    }
    Some(blocks)
}

fn metric<'a>(log: &'a EntityLog, entity: &str, key: &str) -> &'a Series {
    log.series
        .iter()
        .find(|s| s.entity == entity && s.metric == key)
        .unwrap_or_else(|| panic!("no {key} of {entity}"))
}

#[track_caller]
fn value(s: &Series, want: f64) {
    assert_eq!(s.values.len(), 1, "{}", s.metric);
    let got = s.values[0].unwrap_or_else(|| panic!("{}: unknown, expected {want}", s.metric));
    assert!(
        (got - want).abs() <= 1e-9 * want.abs().max(1.0),
        "{} {}: {got} != {want}",
        s.entity,
        s.metric
    );
}

#[test]
fn corpus_curve_blocks() {
    let Some(blocks) = corpus_blocks() else {
        return;
    };
    assert_eq!(blocks.len(), 7);
    let logs: Vec<(String, EntityLog)> = blocks
        .iter()
        .map(|(h, b)| {
            assert!(looks_like(b), "{h}");
            (h.clone(), parse(b).unwrap_or_else(|e| panic!("{h}: {e}")))
        })
        .collect();
    for (h, log) in &logs {
        assert_eq!(log.format, "hcibench");
        assert_eq!(log.origin, None, "{h}: no Datastore line in the excerpt");
        assert_eq!(log.series.len(), 7, "{h}");
        assert!(
            log.warnings.is_empty() && log.skipped.is_empty(),
            "{h}: {log:?}"
        );
        for s in &log.series {
            assert_eq!(
                (s.entity_type.as_str(), s.entity.as_str()),
                ("hcibench", "job0")
            );
            assert_eq!(s.times, vec![None]);
        }
    }
    // "## Max": IOPS = 26833.38 IO/S, THROUGHPUT = 107.00 MB/s, W_LATENCY = 11.28 ms,
    // 95%tile_W_LAT = 42.00 ms, VMs = 16, R_LATENCY = 0.00 ms.
    let (h, max) = &logs[0];
    assert_eq!(h, "Max");
    let iops = metric(max, "job0", "IOPS");
    assert_eq!(
        (iops.measure, iops.raw_unit.as_str()),
        (Some(Measure::TotalIops), "IO/S")
    );
    value(iops, 26833.38);
    let tput = metric(max, "job0", "THROUGHPUT");
    assert_eq!(
        (tput.measure, tput.raw_unit.as_str()),
        (Some(Measure::TotalBytesPerS), "MB/s")
    );
    value(tput, 107.00 * MIB);
    let w = metric(max, "job0", "W_LATENCY");
    assert_eq!(w.measure, Some(Measure::WriteLatencyMs));
    value(w, 11.28);
    let r = metric(max, "job0", "R_LATENCY");
    assert_eq!(r.values, vec![Some(0.0)]); // printed 0.00: a value, not unknown
    let p95 = metric(max, "job0", "95%tile_W_LAT");
    assert_eq!(p95.measure, Some(Measure::WriteLatencyP95Ms));
    value(p95, 42.00);
    assert_eq!(
        metric(max, "job0", "95%tile_R_LAT").measure,
        Some(Measure::ReadLatencyP95Ms)
    );
    let vms = metric(max, "job0", "VMs");
    assert_eq!((vms.measure, vms.raw_unit.as_str()), (None, "count"));
    value(vms, 16.0);
    // "## 20% of Max": IOPS = 5440.17, THROUGHPUT = 21.00 MB/s, W_LATENCY = 0.71 ms.
    let (h, p20) = &logs[1];
    assert_eq!(h, "20% of Max");
    value(metric(p20, "job0", "IOPS"), 5440.17);
    value(metric(p20, "job0", "THROUGHPUT"), 21.00 * MIB);
    value(metric(p20, "job0", "W_LATENCY"), 0.71);
    value(metric(p20, "job0", "95%tile_W_LAT"), 1.00);
    // "### 80% of Max": IOPS = 21759.68, 95%tile_W_LAT = 3.00 ms.
    let (h, p80) = &logs[4];
    assert_eq!(h, "80% of Max");
    value(metric(p80, "job0", "IOPS"), 21759.68);
    value(metric(p80, "job0", "W_LATENCY"), 1.96);
    value(metric(p80, "job0", "95%tile_W_LAT"), 3.00);
    // "### 95% of Max": IOPS = 25919.80, THROUGHPUT = 103.00 MB/s, W_LATENCY = 2.46 ms.
    let (h, p95) = &logs[6];
    assert_eq!(h, "95% of Max");
    value(metric(p95, "job0", "IOPS"), 25919.80);
    value(metric(p95, "job0", "THROUGHPUT"), 103.00 * MIB);
    value(metric(p95, "job0", "W_LATENCY"), 2.46);
    value(metric(p95, "job0", "95%tile_W_LAT"), 4.00);
}

#[test]
fn corpus_document_as_a_whole() {
    // The whole markdown document: its 7 embedded blocks are read, its prose lines and code
    // fences are counted as skipped, never mistaken for values.
    let p = shared(CORPUS);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return;
    }
    let md = std::fs::read_to_string(&p).unwrap();
    assert!(looks_like(&md));
    let log = parse(&md).unwrap();
    assert_eq!(log.series.len(), 7 * 7);
    let iops: Vec<Option<f64>> = log
        .series
        .iter()
        .filter(|s| s.metric == "IOPS")
        .map(|s| s.values[0])
        .collect();
    assert_eq!(
        iops,
        [26833.38, 5440.17, 10880.09, 16320.02, 21759.68, 24447.62, 25919.80].map(Some)
    );
    assert!(!log.skipped.is_empty());
    // Line 17: "27,000 IOPS / (16VM * 4 disks) = ~425 IOPS per disk" has an '=' but no number.
    assert!(
        log.skipped.iter().any(|s| s.line == 17),
        "{:?}",
        log.skipped
    );
}

#[test]
fn fio_fixture_two_jobs_and_resource_usage() {
    let log = fix("fio-8vmdk-2jobs-res.txt");
    assert_eq!(log.origin.as_deref(), Some("vsanDatastore-a"));
    assert!(log.skipped.is_empty(), "{:?}", log.skipped);
    assert_eq!(
        log.warnings,
        vec![
            "line 2: There are 1 VMs finished testing early, those VMs are not used for \
             summarizing results"
                .to_string(),
            "line 13: There are 1 VMs finished testing early, those VMs are not used for \
             summarizing results"
                .to_string(),
        ]
    );
    assert_eq!(log.series.len(), 7 + 7 + 3);
    value(metric(&log, "job0", "IOPS"), 84210.55);
    value(metric(&log, "job0", "THROUGHPUT"), 328.95 * MIB);
    value(metric(&log, "job0", "R_LATENCY"), 1.42);
    value(metric(&log, "job0", "95%tile_R_LAT"), 2.51);
    value(metric(&log, "job1", "THROUGHPUT"), 752.75 * MIB);
    value(metric(&log, "job1", "95%tile_W_LAT"), 9.86);
    value(metric(&log, "job1", "VMs"), 7.0);
    let cpu = metric(&log, "Resource Usage", "CPU USAGE");
    assert_eq!((cpu.measure, cpu.raw_unit.as_str()), (None, "%"));
    value(cpu, 48.27);
    value(metric(&log, "Resource Usage", "RAM USAGE"), 31.05);
    value(metric(&log, "Resource Usage", "vSAN PCPU USAGE"), 17.8342);
    assert_eq!(log.find("hcibench", Measure::TotalIops).count(), 2);
}

#[test]
fn vdbench_fixture_run_definitions() {
    let log = fix("vdbench-2rundefs-res.txt");
    let run1 = "RD=run1; I/O rate: Uncontrolled MAX; elapsed=3600 warmup=1800; For loops: None";
    let run2 = "RD=run2; I/O rate: 48000; elapsed=3600 warmup=1800; For loops: None";
    assert_eq!(log.series.len(), 7 + 7 + 3);
    let lat = metric(&log, run1, "LATENCY");
    assert_eq!(lat.measure, Some(Measure::LatencyMs));
    value(lat, 1.33);
    value(metric(&log, run1, "IOPS"), 96412.37);
    value(metric(&log, run1, "THROUGHPUT"), 376.61 * MIB);
    value(metric(&log, run1, "W_LATENCY"), 2.05);
    let p95 = metric(&log, run1, "95%tile_LAT");
    assert_eq!((p95.measure, p95.raw_unit.as_str()), (None, "ms"));
    value(p95, 3.94);
    value(metric(&log, run2, "IOPS"), 42000.1);
    value(metric(&log, run2, "R_LATENCY"), 0.48);
    value(metric(&log, run2, "VMs"), 7.0);
    value(metric(&log, "Resource Usage", "CPU USAGE"), 55.1);
    assert!(log.warnings[0].starts_with("line 23: Testing is done, 7 out of 8 VMs"));
    // Line 24: the result file named by that note.
    assert_eq!(log.skipped.len(), 1);
    assert_eq!(log.skipped[0].line, 24);
}

#[test]
fn k8s_fixture_pods_and_two_datastores() {
    let log = fix("fio-k8s-2datastores-res.txt");
    assert_eq!(log.origin.as_deref(), Some("vsanDatastore-a, nfs-ds01"));
    value(metric(&log, "vsanDatastore-a: job0", "IOPS"), 40125.0412);
    value(metric(&log, "vsanDatastore-a: job0", "PODS"), 4.0);
    value(metric(&log, "vsanDatastore-a: job0", "W_LATENCY"), 1.9045);
    value(metric(&log, "nfs-ds01: job0", "IOPS"), 9850.5);
    value(metric(&log, "nfs-ds01: job0", "THROUGHPUT"), 38.4785 * MIB);
    value(metric(&log, "nfs-ds01: job0", "95%tile_W_LAT"), 8.192);
    value(metric(&log, "Resource Usage", "RAM USAGE"), 18.9);
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
}

#[test]
fn unknown_keys_units_and_nan() {
    let text = "=============================\nJOB_NAME\t= job0\nVMs\t\t= 0\n\
                IOPS\t\t= NaN IO/S\nTHROUGHPUT\t= 107.00 KB/s\nR_IOPS\t\t= 12.5 IO/S\n\
                =============================\n";
    let log = parse(text).unwrap();
    assert_eq!(metric(&log, "job0", "IOPS").values, vec![None]);
    assert_eq!(
        metric(&log, "job0", "IOPS").measure,
        Some(Measure::TotalIops)
    );
    let tput = metric(&log, "job0", "THROUGHPUT");
    assert_eq!((tput.measure, tput.raw_unit.as_str()), (None, "KB/s"));
    value(tput, 107.0);
    let r = metric(&log, "job0", "R_IOPS");
    assert_eq!((r.measure, r.raw_unit.as_str()), (None, "IO/S"));
    value(r, 12.5);
    let w = log.warnings.join("\n");
    assert!(
        w.contains("line 4: IOPS of job0 is not a number ('NaN IO/S')"),
        "{w}"
    );
    assert!(
        w.contains("line 5: THROUGHPUT of job0 printed in 'KB/s'"),
        "{w}"
    );
    assert!(
        w.contains("keys not known to sizer, kept without a measure: R_IOPS"),
        "{w}"
    );
}

#[test]
fn text_without_results_is_an_error() {
    let e = parse("Resource Usage:\nCPU USAGE\t= 12.0%\n").unwrap_err();
    assert!(matches!(e, ParseError::Section { .. }));
    assert!(e.to_string().contains("holds no HCIBench results"), "{e}");
    let e = parse("some notes\nIOPS = 5 IO/S\n").unwrap_err();
    assert!(e.to_string().contains("holds no HCIBench results"), "{e}");
    assert!(!looks_like("some notes\nIOPS = 5 IO/S\n"));
}

#[test]
fn crlf_and_bom() {
    let text = format!(
        "\u{feff}{}",
        fix_text("fio-8vmdk-2jobs-res.txt").replace('\n', "\r\n")
    );
    assert!(looks_like(&text));
    assert_eq!(parse(&text).unwrap(), fix("fio-8vmdk-2jobs-res.txt"));
    let bytes = text.as_bytes();
    assert_eq!(
        sizer_parsers::hcibench::parse_bytes(bytes).unwrap(),
        fix("fio-8vmdk-2jobs-res.txt")
    );
}

/// Conformance: the corpus HCIBench document is recognised; no other vSAN corpus file (nor an
/// esxtop CSV) is claimed.
#[test]
fn corpus_conformance() {
    let dir = shared("");
    if !dir.exists() {
        crate::common::corpus_absent(&dir);
        return;
    }
    assert!(looks_like(
        &std::fs::read_to_string(shared(CORPUS)).unwrap()
    ));
    for f in [
        "DERIVED_esxtopd_disk-columns-only.csv",
        "equelin_vsanmetrics_entities.md",
        "lamw_mapping-vsan-perf-stats-to-powercli-api_README.md",
        "otel_vcenterreceiver_mock_cluster-vsan.xml",
        "telegraf_README-VSAN_2019-07_camelCase.md",
        "telegraf_vsan_sample_output_lineprotocol.md",
    ] {
        let text = std::fs::read_to_string(shared(f)).unwrap();
        assert!(!looks_like(&text), "{f} claimed as HCIBench");
    }
    let esxtop = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/esxtop/esxtop-default-small.csv"),
    )
    .unwrap();
    assert!(!looks_like(&esxtop));
}

proptest! {
    /// Any prefix of a fixture gives a log or the "no results" error, never a panic.
    #[test]
    fn truncated_fixture_never_panics(cut in 0usize..900) {
        let text = fix_text("vdbench-2rundefs-res.txt");
        let mut cut = cut.min(text.len());
        while !text.is_char_boundary(cut) { cut -= 1; }
        match parse(&text[..cut]) {
            Ok(log) => prop_assert!(log.series.iter().all(|s| s.values.len() == 1)),
            Err(e) => prop_assert!(e.to_string().contains("no HCIBench results")),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Streaming: `parse_stream` over a reader that hands over a few bytes at a time.
// ---------------------------------------------------------------------------------------------

/// A reader that returns at most 7 bytes per read.
struct Trickle<'a>(&'a [u8]);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(7).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// `bytes` through `Hcibench::parse_stream`, 7 bytes per read under a 16-byte buffer.
fn streamed(bytes: &[u8]) -> Result<EntityLog, ParseError> {
    use sizer_parsers::{hcibench::Hcibench, sink::Collect, FormatParser, Parsed};
    let mut src = std::io::BufReader::with_capacity(16, Trickle(bytes));
    let mut sink = Collect::new();
    Hcibench.parse_stream(&mut src, &Default::default(), &mut sink)?;
    match sink.into_parsed() {
        Some(Parsed::Entities(log)) => Ok(*log),
        other => panic!("not an entity log: {other:?}"),
    }
}

fn whole(bytes: &[u8]) -> EntityLog {
    match sizer_parsers::parse_bytes(bytes).unwrap() {
        sizer_parsers::Parsed::Entities(log) => *log,
        other => panic!("not an entity log: {other:?}"),
    }
}

#[test]
fn two_datastore_fixture_streams_in_small_reads_as_the_whole_text_parses() {
    let text = fix_text("fio-k8s-2datastores-res.txt");
    let log = streamed(text.as_bytes()).unwrap();
    // The datastore prefix, known only once the second `Datastore =` line is read.
    assert_eq!(log.origin.as_deref(), Some("vsanDatastore-a, nfs-ds01"));
    value(metric(&log, "vsanDatastore-a: job0", "IOPS"), 40125.0412);
    value(metric(&log, "nfs-ds01: job0", "THROUGHPUT"), 38.4785 * MIB);
    value(metric(&log, "Resource Usage", "RAM USAGE"), 18.9);
    assert_eq!(log, whole(text.as_bytes()));
    // CRLF and a BOM, streamed: the same log.
    let crlf = format!("\u{feff}{}", text.replace('\n', "\r\n"));
    assert_eq!(streamed(crlf.as_bytes()).unwrap(), log);
}

#[test]
fn corpus_and_vdbench_fixture_stream_as_the_whole_text_parses() {
    let text = fix_text("vdbench-2rundefs-res.txt");
    let log = streamed(text.as_bytes()).unwrap();
    let run1 = "RD=run1; I/O rate: Uncontrolled MAX; elapsed=3600 warmup=1800; For loops: None";
    value(metric(&log, run1, "LATENCY"), 1.33);
    assert!(log.warnings[0].starts_with("line 23: Testing is done, 7 out of 8 VMs"));
    assert_eq!(log.skipped[0].line, 24);
    assert_eq!(log, whole(text.as_bytes()));
    let p = shared(CORPUS);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return;
    }
    let bytes = std::fs::read(&p).unwrap();
    assert_eq!(streamed(&bytes).unwrap(), whole(&bytes));
    // No result block: the same error.
    let none = b"Datastore = ds1\nnothing here\n";
    assert_eq!(
        streamed(none).unwrap_err().to_string(),
        parse(std::str::from_utf8(none).unwrap())
            .unwrap_err()
            .to_string()
    );
}
