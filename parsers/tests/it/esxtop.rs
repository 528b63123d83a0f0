//! The `esxtop -b` batch CSV parser on the real corpus file (`../shared/corpus/vsan/`, read in
//! place, never copied) and on the hand-made fixtures in `fixtures/esxtop/` (see its README).
//!
//! Every real value below was read by hand from the cited file, row and header cell.

use std::path::{Path, PathBuf};

use chrono::NaiveDateTime;
use proptest::prelude::*;
use sizer_parsers::entity::{EntityLog, Measure, Series};
use sizer_parsers::esxtop::{looks_like, parse};
use sizer_parsers::ParseError;

const CORPUS: &str = "DERIVED_esxtopd_disk-columns-only.csv";
const MIB: f64 = 1_048_576.0;

fn shared(rel: &str) -> PathBuf {
    crate::common::shared("vsan").join(rel)
}

fn fix_text(rel: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures/esxtop")
            .join(rel),
    )
    .unwrap()
}

fn fix(rel: &str) -> EntityLog {
    let text = fix_text(rel);
    assert!(looks_like(&text), "{rel}: not recognised");
    parse(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The parsed corpus file, or `None` (after printing SKIPPED) when the corpus is absent.
fn corpus() -> Option<EntityLog> {
    let p = shared(CORPUS);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return None;
    }
    let bytes = std::fs::read(&p).unwrap();
    let text = sizer_parsers::input::decode(&bytes).unwrap().text;
    assert!(looks_like(&text));
    Some(parse(&text).unwrap())
}

fn series<'a>(log: &'a EntityLog, object: &str, instance: &str, counter: &str) -> &'a Series {
    log.series
        .iter()
        .find(|s| s.entity_type == object && s.entity == instance && s.metric == counter)
        .unwrap_or_else(|| panic!("no {object}({instance})\\{counter}"))
}

#[track_caller]
fn values(s: &Series, expected: &[f64]) {
    assert_eq!(
        s.values.len(),
        expected.len(),
        "{}: {:?}",
        s.metric,
        s.values
    );
    for (got, want) in s.values.iter().zip(expected) {
        let got = got.unwrap_or_else(|| panic!("{}: unknown, expected {want}", s.metric));
        assert!(
            (got - want).abs() <= 1e-9 * want.abs().max(1.0),
            "{}({}) {}: {got} != {want}",
            s.entity_type,
            s.entity,
            s.metric
        );
    }
}

fn t(s: &str) -> Option<NaiveDateTime> {
    Some(NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap())
}

#[test]
fn corpus_header_rows_and_times() {
    let Some(log) = corpus() else { return };
    assert_eq!(log.format, "esxtop_csv");
    assert_eq!(log.origin.as_deref(), Some("localhost.home"));
    // 198 header cells: the time, `\\localhost.home\VSAN\Enabled?` and 196 storage columns.
    assert_eq!(log.series.len(), 196);
    assert_eq!(
        log.warnings,
        vec!["1 column of other objects ignored (VSAN)".to_string()]
    );
    // Row 1 (line 2, "04/26/2018 14:06:27", all rates 0.00) is esxtop's no-delta sample.
    assert_eq!(log.skipped.len(), 1);
    assert_eq!(log.skipped[0].line, 2);
    for s in &log.series {
        assert_eq!(
            s.times,
            vec![t("2018-04-26 14:06:32"), t("2018-04-26 14:06:37")]
        );
        assert!(s.utc);
        assert_eq!(s.host.as_deref(), Some("localhost.home"));
    }
    let count = |ty: &str| {
        let mut e: Vec<&str> = log
            .series
            .iter()
            .filter(|s| s.entity_type == ty)
            .map(|s| s.entity.as_str())
            .collect();
        e.dedup();
        e.len()
    };
    assert_eq!(count("Physical Disk Adapter"), 1);
    assert_eq!(count("Physical Disk"), 4);
    assert_eq!(count("Physical Disk SCSI Device"), 4);
    assert_eq!(count("Virtual Disk"), 13);
}

#[test]
fn corpus_adapter_values() {
    let Some(log) = corpus() else { return };
    // Header cells 3-11, rows 2 and 3 (lines 3 and 4).
    let a = |c| series(&log, "Physical Disk Adapter", "vmhba0", c);
    let cmds = a("Commands/sec");
    assert_eq!(cmds.measure, Some(Measure::TotalIops));
    assert_eq!(cmds.raw_unit, "commands/s");
    values(cmds, &[18.87, 15.86]);
    values(a("Reads/sec"), &[0.80, 4.02]);
    values(a("Writes/sec"), &[17.67, 11.24]);
    let mbr = a("MBytes Read/sec");
    assert_eq!(
        (mbr.measure, mbr.raw_unit.as_str()),
        (Some(Measure::ReadBytesPerS), "MBytes/s")
    );
    values(mbr, &[0.0, 0.32 * MIB]);
    values(a("MBytes Written/sec"), &[0.10 * MIB, 0.07 * MIB]);
    let davg = a("Average Driver MilliSec/Command");
    assert_eq!(davg.measure, Some(Measure::DeviceLatencyMs));
    values(davg, &[1.14, 1.24]);
    values(a("Average Kernel MilliSec/Command"), &[0.21, 0.06]);
    values(a("Average Guest MilliSec/Command"), &[1.35, 1.31]);
    values(a("Average Queue MilliSec/Command"), &[0.00, 0.00]);
    assert_eq!(
        a("Average Queue MilliSec/Command").measure,
        Some(Measure::QueueLatencyMs)
    );
    assert_eq!(
        log.find("Physical Disk Adapter", Measure::GuestLatencyMs)
            .count(),
        1
    );
}

#[test]
fn corpus_device_and_virtual_disk_values() {
    let Some(log) = corpus() else { return };
    // Header cell 44: Physical Disk(vmhba0:vmhba0:C0:T5:L0)\Average Driver MilliSec/Command.
    values(
        series(
            &log,
            "Physical Disk",
            "vmhba0:vmhba0:C0:T5:L0",
            "Average Driver MilliSec/Command",
        ),
        &[31.53, 20.15],
    );
    // Header cell 48: Physical Disk SCSI Device(mpx.vmhba0:C0:T5:L0)\Device Q Depth = "31".
    let qd = series(
        &log,
        "Physical Disk SCSI Device",
        "mpx.vmhba0:C0:T5:L0",
        "Device Q Depth",
    );
    assert_eq!((qd.measure, qd.raw_unit.as_str()), (None, "commands"));
    values(qd, &[31.0, 31.0]);
    // Header cell 77: the DREVO SSD's Average Queue MilliSec/Command.
    let drevo = "t10.ATA_____DREVO_X1_SSD____________________________TW1770103538________";
    values(
        series(
            &log,
            "Physical Disk SCSI Device",
            drevo,
            "Average Queue MilliSec/Command",
        ),
        &[0.21, 0.06],
    );
    values(
        series(&log, "Physical Disk SCSI Device", drevo, "Commands/sec"),
        &[18.47, 14.46],
    );
    // Header cells 190-191: Virtual Disk(poseidon)\Average MilliSec/Read|Write.
    let rd = series(&log, "Virtual Disk", "poseidon", "Average MilliSec/Read");
    assert_eq!(rd.measure, Some(Measure::ReadLatencyMs));
    values(rd, &[0.00, 0.55]);
    let wr = series(&log, "Virtual Disk", "poseidon", "Average MilliSec/Write");
    assert_eq!(wr.measure, Some(Measure::WriteLatencyMs));
    values(wr, &[0.77, 0.64]);
    values(
        series(&log, "Virtual Disk", "poseidon", "MBytes Read/sec"),
        &[0.0, 0.32 * MIB],
    );
    // Header cell 180: Virtual Disk(ouranos:scsi2:0)\Writes/sec.
    values(
        series(&log, "Virtual Disk", "ouranos:scsi2:0", "Writes/sec"),
        &[0.00, 0.80],
    );
}

#[test]
fn default_fixture_skips_other_objects_and_the_trailing_empty_cell() {
    let log = fix("esxtop-default-small.csv");
    assert_eq!(log.origin.as_deref(), Some("esx01.example.com"));
    // 9 adapter + 9 path + 15 device + 7 + 7 virtual-disk columns, and the host CPU's
    // `Physical Cpu(_Total)\% Util Time` (the per-CPU `Physical Cpu(0)`, `(1)` are skipped).
    assert_eq!(log.series.len(), 47 + 1);
    assert_eq!(
        log.warnings,
        vec![
            "10 columns of other objects ignored (Memory, Physical Cpu Load, Physical Cpu, \
             Group Cpu, Network Port, VSAN)"
                .to_string()
        ]
    );
    let cpu = series(&log, "Physical Cpu", "_Total", "% Util Time");
    assert_eq!(cpu.measure, Some(Measure::HostCpuBusyPct));
    assert_eq!(cpu.raw_unit, "%");
    values(cpu, &[36.0, 37.0, 38.0]);
    assert_eq!(log.skipped.len(), 1);
    let dev = |c| series(&log, "Physical Disk SCSI Device", "naa.600508b1001c5e1a", c);
    values(dev("Reads/sec"), &[800.0, 1200.40, 400.0]);
    values(dev("Writes/sec"), &[200.0, 399.60, 600.0]);
    values(dev("Commands/sec"), &[1000.0, 1600.0, 1000.0]);
    values(
        dev("MBytes Read/sec"),
        &[12.50 * MIB, 18.76 * MIB, 3.13 * MIB],
    );
    values(dev("Average Guest MilliSec/Command"), &[1.25, 2.50, 0.82]);
    values(dev("% Used"), &[4.5, 9.0, 13.5]);
    assert_eq!(dev("% Used").measure, None);
    let vd = |c| series(&log, "Virtual Disk", "db01:scsi0:1", c);
    values(vd("Average MilliSec/Read"), &[1.28, 2.53, 0.85]);
    values(vd("Average MilliSec/Write"), &[1.36, 2.61, 0.93]);
    assert_eq!(
        series(&log, "Physical Disk", "vmhba1:vmhba1:C0:T0:L1", "Reads/sec").times,
        vec![
            t("2024-03-14 09:00:05"),
            t("2024-03-14 09:00:10"),
            t("2024-03-14 09:00:15")
        ]
    );
}

#[test]
fn all_counters_fixture_crlf_junk_cell_and_read_write_latencies() {
    let log = fix("esxtop-a-all-counters-crlf.csv");
    // 26 adapter + 31 device + 7 + 7 virtual-disk columns; 6 columns of other objects, and
    // the junk cell "   -" that ends the header.
    assert_eq!(log.series.len(), 26 + 31 + 7 + 7);
    assert!(log.warnings.contains(
        &"6 columns of other objects ignored (Physical Cpu, Memory, Physical Disk Path, \
          Physical Disk Per-Device-Per-World)"
            .to_string()
    ));
    assert!(log.warnings.contains(
        &"counters of storage objects not known to sizer, kept without a measure: PAE \
          Commands/sec"
            .to_string()
    ));
    let pae = series(&log, "Physical Disk Adapter", "vmhba64", "PAE Commands/sec");
    assert_eq!((pae.measure, pae.raw_unit.as_str()), (None, ""));
    values(pae, &[0.0, 0.0]);
    let naa = "naa.624a9370d4d78052a9e1426b00011a2b";
    let dev = |c| series(&log, "Physical Disk SCSI Device", naa, c);
    let gr = dev("Average Guest MilliSec/Read");
    assert_eq!(gr.measure, Some(Measure::ReadLatencyMs));
    values(gr, &[0.42, 0.59]);
    values(dev("Average Guest MilliSec/Write"), &[0.93, 1.16]);
    let dr = dev("Average Driver MilliSec/Read");
    assert_eq!((dr.measure, dr.raw_unit.as_str()), (None, "ms"));
    values(dr, &[0.40, 0.55]);
    values(dev("Average Driver MilliSec/Command"), &[0.50, 0.67]);
    values(dev("MBytes Written/sec"), &[48.83 * MIB, 70.31 * MIB]);
    assert_eq!(
        log.find("Physical Disk SCSI Device", Measure::ReadLatencyMs)
            .count(),
        1
    );
    let vm = "SQL01 (104c07ff-3663-44fb-9d89-a563c801611c):scsi0:1";
    values(
        series(&log, "Virtual Disk", vm, "Reads/sec"),
        &[5000.0, 6200.0],
    );
    assert_eq!(
        series(&log, "Virtual Disk", vm, "Reads/sec").times,
        vec![t("2026-11-30 08:00:02"), t("2026-11-30 08:00:04")]
    );
}

#[test]
fn gzip_goes_through_input_decode() {
    use std::io::Write;
    let text = fix_text("esxtop-default-small.csv");
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(text.as_bytes()).unwrap();
    let gz = z.finish().unwrap();
    let decoded = sizer_parsers::input::decode(&gz).unwrap();
    assert!(decoded.gzip);
    let log = parse(&decoded.text).unwrap();
    assert_eq!(log, parse(&text).unwrap());
    assert_eq!(log.series.len(), 47 + 1); // + Physical Cpu(_Total)\% Util Time
    assert_eq!(sizer_parsers::esxtop::parse_bytes(&gz).unwrap(), log);
}

const HDR: &str = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\h\\Physical Cpu(0)\\% Processor Time\",\
                   \"\\\\h\\Physical Disk SCSI Device(naa.1)\\Reads/sec\",\
                   \"\\\\h\\Physical Disk SCSI Device(naa.1)\\Writes/sec\"";

fn csv(rows: &[&str]) -> String {
    let mut s = HDR.to_string();
    for r in rows {
        s.push('\n');
        s.push_str(r);
    }
    s.push('\n');
    s
}

const ROW0: &str = "\"01/02/2024 10:00:00\",\"0.00\",\"0.00\",\"0.00\"";
const ROW1: &str = "\"01/02/2024 10:00:05\",\"5.00\",\"10.00\",\"20.00\"";
const ROW2: &str = "\"01/02/2024 10:00:10\",\"6.00\",\"11.00\",\"21.00\"";

#[test]
fn a_short_row_is_an_error_naming_the_line() {
    let e = parse(&csv(&[
        ROW0,
        ROW1,
        "\"01/02/2024 10:00:10\",\"6.00\",\"11.00\"",
    ]))
    .unwrap_err();
    let m = e.to_string();
    assert!(m.contains("line 4") && m.contains("4 cells"), "{m}");
    // A line cut inside a quoted cell.
    let e = parse(&csv(&[ROW0, ROW1, "\"01/02/2024 10:00:10\",\"6.00\",\"1"])).unwrap_err();
    assert!(e.to_string().contains("line 4"), "{e}");
}

#[test]
fn extra_cells_must_be_empty() {
    let log = parse(&csv(&[ROW0, ROW1, &format!("{ROW2},\"\",\"   -\"")])).unwrap();
    assert_eq!(log.series[0].values, vec![Some(10.0), Some(11.0)]);
    let e = parse(&csv(&[ROW0, ROW1, &format!("{ROW2},\"7.00\"")])).unwrap_err();
    assert!(e.to_string().contains("line 4"), "{e}");
}

#[test]
fn a_file_without_storage_columns_holds_no_disk_statistics() {
    let text = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\h\\Physical Cpu(0)\\% Processor Time\",\
                \"\\\\h\\Memory\\Free MBytes\"\n\"01/02/2024 10:00:00\",\"0.00\",\"100\"\n";
    assert!(looks_like(text));
    let e = parse(text).unwrap_err();
    assert!(matches!(e, ParseError::Section { .. }));
    let m = e.to_string();
    assert!(m.contains("holds no disk statistics"), "{m}");
    assert!(m.contains("Physical Cpu, Memory"), "{m}");
}

#[test]
fn the_first_sample_alone_is_not_enough() {
    let e = parse(&csv(&[ROW0])).unwrap_err();
    assert!(e.to_string().contains("-n 2"), "{e}");
    let e = parse(HDR).unwrap_err();
    assert!(e.to_string().contains("0 sample row"), "{e}");
}

#[test]
fn bad_time_and_bad_values() {
    let e = parse(&csv(&[
        ROW0,
        "\"2024-01-02 10:00:05\",\"5.00\",\"10.00\",\"20.00\"",
    ]))
    .unwrap_err();
    let m = e.to_string();
    assert!(m.contains("line 3") && m.contains("MM/DD/YYYY"), "{m}");
    let log = parse(&csv(&[
        ROW0,
        "\"01/02/2024 10:00:05\",\"5.00\",\"N/A\",\"\"",
        ROW2,
    ]))
    .unwrap();
    assert_eq!(log.series[0].values, vec![None, Some(11.0)]);
    assert_eq!(log.series[1].values, vec![None, Some(21.0)]);
    assert!(log
        .warnings
        .iter()
        .any(|w| w.starts_with("1 values that are not numbers") && w.contains("line 3")));
}

#[test]
fn repeated_header_and_second_run() {
    let log = parse(&csv(&[ROW0, ROW1, HDR, ROW0, ROW2])).unwrap();
    assert_eq!(log.series[0].values, vec![Some(10.0), Some(11.0)]);
    let lines: Vec<usize> = log.skipped.iter().map(|s| s.line).collect();
    assert_eq!(lines, vec![2, 4, 5]);
    let other = HDR.replace("Writes/sec", "Commands/sec");
    let e = parse(&csv(&[ROW0, ROW1, &other, ROW2])).unwrap_err();
    assert!(e.to_string().contains("line 4"), "{e}");
}

#[test]
fn crlf_bom_and_local_zone() {
    let text = format!("\u{feff}{}", csv(&[ROW0, ROW1]).replace('\n', "\r\n"));
    assert!(looks_like(&text));
    let log = parse(&text).unwrap();
    assert_eq!(log.series[1].values, vec![Some(20.0)]);
    assert!(log.series[1].utc);
    let local = csv(&[ROW0, ROW1]).replace("(UTC)(0)", "(Pacific Standard Time)(480)");
    let log = parse(&local).unwrap();
    assert!(!log.series[0].utc);
    assert!(
        log.warnings[0].contains("Pacific Standard Time"),
        "{:?}",
        log.warnings
    );
}

#[test]
fn quoted_quotes_in_an_instance_name() {
    let text = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\h\\Virtual Disk(vm \"\"x\"\")\\Reads/sec\"\n\
                \"01/02/2024 10:00:00\",\"0.00\"\n\"01/02/2024 10:00:05\",\"3.00\"\n";
    let log = parse(text).unwrap();
    assert_eq!(log.series[0].entity, "vm \"x\"");
    assert_eq!(log.series[0].values, vec![Some(3.0)]);
}

#[test]
fn other_formats_are_not_claimed() {
    // Windows perfmon (relog) CSV shares the first cell.
    let perfmon = "\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\",\
                   \"\\\\SRV01\\PhysicalDisk(_Total)\\Disk Reads/sec\",\
                   \"\\\\SRV01\\Processor(_Total)\\% Processor Time\"\n";
    assert!(!looks_like(perfmon));
    let e = parse("Linux 5.8.0 (h) \t12/02/2021 \t_x86_64_\t(2 CPU)\n").unwrap_err();
    assert!(matches!(e, ParseError::UnknownFormat { .. }), "{e}");
    assert!(!looks_like("Device  r/s  rkB/s\nsda 1 2\n"));
}

/// Conformance: every esxtop file of the corpus parses; no other vSAN corpus file is claimed.
#[test]
fn corpus_conformance() {
    let dir = shared("");
    if !dir.exists() {
        crate::common::corpus_absent(&dir);
        return;
    }
    // Every esxtop file of the corpus (one so far).
    const ESXTOP_FILES: &[&str] = &[CORPUS];
    for f in ESXTOP_FILES {
        let bytes = std::fs::read(shared(f)).unwrap();
        let text = sizer_parsers::input::decode(&bytes).unwrap().text;
        assert!(looks_like(&text), "{f}");
        parse(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
    for f in [
        "cleeistaken_Test-Profiles_Curve_README_hcibench_results.md",
        "equelin_vsanmetrics_entities.md",
        "lamw_mapping-vsan-perf-stats-to-powercli-api_README.md",
        "otel_vcenterreceiver_mock_cluster-vsan.xml",
        "telegraf_README-VSAN_2019-07_camelCase.md",
        "telegraf_vsan_sample_output_lineprotocol.md",
    ] {
        let text = std::fs::read_to_string(shared(f)).unwrap();
        assert!(!looks_like(&text), "{f} claimed as esxtop");
    }
}

proptest! {
    /// Any prefix of a fixture gives a log or a positioned error, never a panic; a log is
    /// consistent (every series as long as its times) and agrees with the full file.
    #[test]
    fn truncated_fixture_never_panics(cut in 0usize..6000) {
        let text = fix_text("esxtop-default-small.csv");
        let full = parse(&text).unwrap();
        let mut cut = cut.min(text.len());
        while !text.is_char_boundary(cut) { cut -= 1; }
        match parse(&text[..cut]) {
            Ok(log) => {
                for (s, f) in log.series.iter().zip(&full.series) {
                    prop_assert_eq!(s.values.len(), s.times.len());
                    prop_assert_eq!(&s.values[..], &f.values[..s.values.len()]);
                }
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
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

/// `bytes` through `EsxtopCsv::parse_stream`, 7 bytes per read under a 16-byte buffer.
fn streamed(bytes: &[u8]) -> EntityLog {
    use sizer_parsers::{esxtop::EsxtopCsv, sink::Collect, FormatParser, Parsed};
    let mut src = std::io::BufReader::with_capacity(16, Trickle(bytes));
    let mut sink = Collect::new();
    EsxtopCsv
        .parse_stream(&mut src, &Default::default(), &mut sink)
        .unwrap();
    match sink.into_parsed() {
        Some(Parsed::Entities(log)) => *log,
        other => panic!("not an entity log: {other:?}"),
    }
}

#[test]
fn corpus_streams_in_small_reads_as_the_whole_text_parses() {
    let p = shared(CORPUS);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return;
    }
    let bytes = std::fs::read(&p).unwrap();
    let log = streamed(&bytes);
    // Header cell 8, line 3 and 4: vmhba0 DAVG/cmd 1.14 and 1.24 ms (line 2 is dropped).
    let s = series(
        &log,
        "Physical Disk Adapter",
        "vmhba0",
        "Average Driver MilliSec/Command",
    );
    values(s, &[1.14, 1.24]);
    assert_eq!(
        s.times,
        vec![t("2018-04-26 14:06:32"), t("2018-04-26 14:06:37")]
    );
    // Header cell 3: vmhba0 Commands/sec 18.87 and 15.86; cell 6, MBytes Read/sec 0.00, 0.32.
    values(
        series(&log, "Physical Disk Adapter", "vmhba0", "Commands/sec"),
        &[18.87, 15.86],
    );
    values(
        series(&log, "Physical Disk Adapter", "vmhba0", "MBytes Read/sec"),
        &[0.0, 0.32 * MIB],
    );
    assert_eq!(log.series.len(), 196);
    assert_eq!(log.skipped[0].line, 2);
    match sizer_parsers::parse_bytes(&bytes).unwrap() {
        sizer_parsers::Parsed::Entities(whole) => assert_eq!(log, *whole),
        other => panic!("not an entity log: {other:?}"),
    }
}

#[test]
fn crlf_fixture_streams_as_the_whole_text_parses() {
    let text = fix_text("esxtop-a-all-counters-crlf.csv");
    assert!(text.contains("\r\n"));
    let log = streamed(text.as_bytes());
    assert_eq!(log, parse(&text).unwrap());
    assert!(!log.series.is_empty());
    // A cut line is named by its line when streamed too.
    let cut = &text[..text.rfind(',').unwrap()];
    let whole = parse(cut).unwrap_err().to_string();
    let mut src = std::io::BufReader::with_capacity(16, Trickle(cut.as_bytes()));
    let mut sink = sizer_parsers::sink::Collect::new();
    use sizer_parsers::FormatParser;
    let err = sizer_parsers::esxtop::EsxtopCsv
        .parse_stream(&mut src, &Default::default(), &mut sink)
        .unwrap_err();
    assert_eq!(err.to_string(), whole);
    assert!(whole.contains("line"), "{whole}");
}

#[test]
fn host_cpu_total_counters_are_kept_verbatim_and_per_cpu_columns_skipped() {
    // fixtures/esxtop/esxtop-host-cpu-total.csv (README there): the 10:00:00 row is esxtop's
    // no-delta row; `Physical Cpu(_Total)\% Util Time` = the mean of `Physical Cpu(0)` and
    // `(1)`: (30 + 40) / 2 = 35.00, (44 + 52) / 2 = 48.00, (80 + 85) / 2 = 82.50,
    // (55 + 65) / 2 = 60.00.
    let log = fix("esxtop-host-cpu-total.csv");
    let busy = series(&log, "Physical Cpu", "_Total", "% Util Time");
    assert_eq!(busy.measure, Some(Measure::HostCpuBusyPct));
    assert_eq!(busy.host.as_deref(), Some("esx03.example.com"));
    values(busy, &[35.0, 48.0, 82.5, 60.0]);
    assert_eq!(busy.times[2], t("2024-11-20 10:01:00"));
    // The other two are kept raw, named verbatim, never taken as the busy figure.
    let core = series(&log, "Physical Cpu", "_Total", "% Core Util Time");
    assert_eq!((core.measure, core.raw_unit.as_str()), (None, "%"));
    values(core, &[52.0, 70.0, 96.0, 84.0]);
    let used = series(&log, "Physical Cpu", "_Total", "% Processor Time");
    assert_eq!(used.measure, None);
    values(used, &[38.5, 52.8, 88.0, 66.0]);
    // 3 CPU + 5 adapter + 6 virtual-disk series; the per-CPU columns and the load are skipped.
    assert_eq!(log.series.len(), 3 + 5 + 6);
    assert!(log
        .series
        .iter()
        .all(|s| s.entity_type != "Physical Cpu" || s.entity == "_Total"));
    assert_eq!(
        log.warnings,
        vec!["3 columns of other objects ignored (Physical Cpu Load, Physical Cpu)".to_string()]
    );
}

#[test]
fn a_file_of_cpu_columns_only_is_still_no_disk_statistics() {
    let text = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\h\\Physical Cpu(_Total)\\% Util Time\"\n\
                \"01/02/2024 10:00:00\",\"0.00\"\n\
                \"01/02/2024 10:00:05\",\"12.50\"\n";
    let e = parse(text).unwrap_err().to_string();
    assert!(e.contains("no disk statistics"), "{e}");
}
