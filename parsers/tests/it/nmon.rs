//! The nmon parser on the real corpus file (`../shared/corpus/iostat/`, read in place, never
//! copied) and on the hand-made fixtures in `fixtures/nmon/` (see its README).
//!
//! Every real value below was read by hand from the cited file and line.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use sizer_parsers::disk::{DeviceLog, DeviceSample};
use sizer_parsers::nmon::{looks_like, parse};
use sizer_parsers::ParseError;

const CORPUS: &str = "nmon-linux-15h-fedora21-g-auto-DG.nmon.txt";

fn shared(rel: &str) -> PathBuf {
    crate::common::shared("iostat").join(rel)
}

fn fix(rel: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures/nmon")
            .join(rel),
    )
    .unwrap()
}

/// The parsed corpus file, or `None` (after printing SKIPPED) when the corpus is absent.
fn corpus() -> Option<DeviceLog> {
    let p = shared(CORPUS);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return None;
    }
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(looks_like(&text));
    Some(parse(&text).unwrap())
}

#[track_caller]
fn close(a: Option<f64>, b: f64, what: &str) {
    let a = a.unwrap_or_else(|| panic!("{what}: unknown, expected {b}"));
    assert!(
        (a - b).abs() <= 1e-6 * b.abs().max(1.0),
        "{what}: {a} != {b}"
    );
}

fn dev<'a>(log: &'a DeviceLog, report: usize, name: &str, group: bool) -> &'a DeviceSample {
    log.reports[report]
        .devices
        .iter()
        .find(|d| d.device == name && d.group == group)
        .unwrap_or_else(|| panic!("no {name} (group {group}) in report {report}"))
}

#[test]
fn corpus_header_snapshots_and_times() {
    let Some(log) = corpus() else { return };
    assert_eq!(log.format, "nmon");
    // Lines 7-15: AAA,host,linux / AAA,OS,Linux,4.1.3-100.fc21.x86_64,…,x86_64 /
    // AAA,date,18-AUG-2015 / AAA,interval,30 / AAA,cpus,4.
    let h = log.header.as_ref().unwrap();
    assert_eq!(h.host, "linux");
    assert_eq!(h.sysname, "Linux");
    assert_eq!(h.kernel, "4.1.3-100.fc21.x86_64");
    assert_eq!(h.arch.as_deref(), Some("x86_64"));
    assert_eq!(h.date.as_deref(), Some("18-AUG-2015"));
    assert_eq!(h.cpus, Some(4));
    // 48 ZZZZ records; T0048 (line 2796, the last line) has no disk data.
    assert_eq!(log.reports.len(), 47);
    assert!(log
        .warnings
        .iter()
        .any(|w| w.starts_with("line 2796:") && w.contains("T0048")));
    assert!(log.skipped.is_empty(), "{:?}", log.skipped);
    // Line 732: ZZZZ,T0001,10:24:26,18-AUG-2015; line 2744: ZZZZ,T0047,10:47:26,18-AUG-2015.
    let first = &log.reports[0];
    assert_eq!(first.line, 732);
    assert_eq!(first.timestamp.as_deref(), Some("10:24:26,18-AUG-2015"));
    assert_eq!(first.time.unwrap().to_string(), "2015-08-18 10:24:26");
    assert_eq!(first.interval_s, Some(30.0));
    assert!(!first.since_boot);
    let last = &log.reports[46];
    assert_eq!(last.line, 2744);
    assert_eq!(last.time.unwrap().to_string(), "2015-08-18 10:47:26");
    // 14 disks (line 37 header) + 2 disk groups (line 45) per snapshot.
    assert!(log.reports.iter().all(|r| r.devices.len() == 16));
}

#[test]
fn corpus_disk_values_by_header_name() {
    let Some(log) = corpus() else { return };
    // Lines 745-749 (T0001), header order sda,sda1,sda2,sdb,sdb1,dm-0,…,dm-6:
    // DISKBUSY …,81.7 (sdb 4th) / DISKREAD 132.1 (sda) / DISKWRITE …,280.6 (sdb) /
    // DISKXFER …,273.2 (sdb), …,272.4 (dm-6) / DISKBSIZE 5.7 (sda).
    let sda = dev(&log, 0, "sda", false);
    close(sda.value("DISKREAD"), 132.1, "DISKREAD sda");
    close(
        sda.normalised.read_bytes_per_s,
        132.1 * 1024.0,
        "KB/s × 1024",
    );
    close(
        sda.normalised.avg_request_bytes,
        5.7 * 1024.0,
        "DISKBSIZE KB",
    );
    close(sda.normalised.total_iops, 23.1, "DISKXFER sda");
    assert_eq!(
        sda.normalised.read_iops, None,
        "Linux nmon has no r/w split without -d"
    );
    let sdb = dev(&log, 0, "sdb", false);
    close(sdb.normalised.util_pct, 81.7, "DISKBUSY sdb");
    close(
        sdb.normalised.write_bytes_per_s,
        280.6 * 1024.0,
        "DISKWRITE sdb",
    );
    close(sdb.normalised.total_iops, 273.2, "DISKXFER sdb");
    close(
        dev(&log, 0, "dm-6", false).normalised.total_iops,
        272.4,
        "dm-6",
    );
    // Line 2757 (T0047): DISKREAD sdb 16306.3, dm-6 16310.6; line 2760 DISKBSIZE sda1 261.7.
    close(
        dev(&log, 46, "sdb", false).value("DISKREAD"),
        16306.3,
        "T0047 sdb",
    );
    close(
        dev(&log, 46, "dm-6", false).value("DISKREAD"),
        16310.6,
        "T0047 dm-6",
    );
    close(
        dev(&log, 46, "sda1", false).normalised.avg_request_bytes,
        261.7 * 1024.0,
        "T0047 sda1 DISKBSIZE",
    );
}

#[test]
fn corpus_disk_groups_are_groups() {
    let Some(log) = corpus() else { return };
    // Lines 772-776 (T0002): DGBUSY 1.1,46.6 / DGREAD 492.5,1690.7 / DGSIZE 10.3,18.6 /
    // DGXFER 83.9,107.2. The groups are named like their disks (`-g auto`).
    let g = dev(&log, 1, "sdb", true);
    close(g.normalised.read_bytes_per_s, 1690.7 * 1024.0, "DGREAD sdb");
    close(g.normalised.avg_request_bytes, 18.6 * 1024.0, "DGSIZE sdb");
    close(g.normalised.total_iops, 107.2, "DGXFER sdb");
    close(
        dev(&log, 1, "sda", true).normalised.util_pct,
        1.1,
        "DGBUSY sda",
    );
    // The disk sdb of the same snapshot (line 770: DISKXFER …,107.2,…) is a separate sample.
    let d = dev(&log, 1, "sdb", false);
    close(d.normalised.total_iops, 107.2, "DISKXFER sdb");
    assert!(d.value("DGXFER").is_none());
}

#[test]
fn fixture_linux_continuation_sections_and_extended_groups() {
    // fixtures/nmon/linux-16g-l2-continuation-dg.nmon: `-l 2` puts nvme0n1 in DISKREAD1 etc.;
    // `-D` adds DISKREADS/DISKWRITES and the DG service sections. Snapshot T0002:
    // nvme0n1 8192 reads/s + 2048 writes/s of 8 KB: 65536 + 16384 KB/s.
    let log = parse(&fix("linux-16g-l2-continuation-dg.nmon")).unwrap();
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
    assert_eq!(log.reports.len(), 3);
    let r = &log.reports[1];
    assert_eq!(r.time.unwrap().to_string(), "2026-11-30 10:02:00");
    assert_eq!(r.interval_s, Some(60.0));
    let names: Vec<(&str, bool)> = r
        .devices
        .iter()
        .map(|d| (d.device.as_str(), d.group))
        .collect();
    assert_eq!(
        names,
        vec![
            ("sda", false),
            ("sdb", false),
            ("nvme0n1", false),
            ("sda", true),
            ("sdb", true),
            ("nvme0n1", true)
        ]
    );
    let nv = dev(&log, 1, "nvme0n1", false);
    // Continuation sections are merged under the family name.
    assert_eq!(nv.values.len(), 7);
    close(nv.value("DISKREAD"), 65536.0, "DISKREAD1 kept as DISKREAD");
    close(nv.normalised.read_iops, 8192.0, "DISKREADS1");
    close(nv.normalised.write_iops, 2048.0, "DISKWRITES1");
    close(nv.normalised.total_iops, 10240.0, "DISKXFER1");
    close(
        nv.normalised.write_bytes_per_s,
        16384.0 * 1024.0,
        "DISKWRITE1",
    );
    let g = dev(&log, 1, "sda", true);
    close(g.normalised.read_iops, 512.0, "DGREADS");
    close(g.value("DGREADSERV"), 15360.0, "sum of ms, kept only");
    assert_eq!(
        g.normalised.read_await_ms, None,
        "DGREADSERV is a sum, not a latency"
    );
    close(g.value("DGINFLIGHT"), 2.0, "in flight");
    assert_eq!(g.normalised.queue_depth, None);
}

#[test]
fn fixture_sorted_file_gives_the_same_reports() {
    // nmon's AAA note: "use the UNIX sort command to order this file": every ZZZZ moves to the
    // end and continuation headers after the first family's data. Snapshots are keyed by Tnnnn.
    let text = fix("linux-16g-l2-continuation-dg.nmon");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    let sorted = lines.join("\n");
    let a = parse(&text).unwrap();
    let b = parse(&sorted).unwrap();
    assert_eq!(a.reports.len(), b.reports.len());
    for (x, y) in a.reports.iter().zip(&b.reports) {
        assert_eq!(x.time, y.time);
        assert_eq!(x.devices.len(), y.devices.len());
        // Same samples; only the order of first appearance differs.
        for d in &x.devices {
            let e = y
                .devices
                .iter()
                .find(|e| e.device == d.device && e.group == d.group)
                .unwrap();
            assert_eq!(d.normalised, e.normalised);
            let mut v1 = d.values.clone();
            let mut v2 = e.values.clone();
            v1.sort_by(|p, q| p.0.cmp(&q.0));
            v2.sort_by(|p, q| p.0.cmp(&q.0));
            assert_eq!(v1, v2);
        }
    }
}

#[test]
fn fixture_aix_topas_nmon() {
    // fixtures/nmon/aix-topas-nmon-7.2.nmon, T0002: hdisk1 600 reads/s + 200 writes/s of 32 KB.
    let log = parse(&fix("aix-topas-nmon-7.2.nmon")).unwrap();
    let h = log.header.as_ref().unwrap();
    assert_eq!((h.sysname.as_str(), h.kernel.as_str()), ("AIX", "7.2.5.3"));
    assert_eq!(h.cpus, Some(16));
    let n = &dev(&log, 1, "hdisk1", false).normalised;
    close(n.read_iops, 600.0, "DISKRIO");
    close(n.write_iops, 200.0, "DISKWIO");
    close(n.total_iops, 800.0, "DISKXFER");
    close(n.read_bytes_per_s, 19200.0 * 1024.0, "DISKREAD");
    close(n.util_pct, 71.5, "DISKBUSY");
    let d = dev(&log, 1, "hdisk1", false);
    close(d.value("DISKAVGRIO"), 32.0, "kept as printed");
    close(d.value("DISKRXFER"), 600.0, "kept as printed");
    assert_eq!(log.reports[2].interval_s, Some(300.0));
}

#[test]
fn truncated_line_is_a_counted_skip() {
    // fixtures/nmon/bad-truncated.nmon: the last line `DISKXFER,T0002,12.0` lost vdb's value.
    let log = parse(&fix("bad-truncated.nmon")).unwrap();
    assert_eq!(log.skipped.len(), 1);
    assert_eq!(log.skipped[0].line, 22);
    assert!(log.skipped[0].reason.contains("1 values for the 2 devices"));
    let vda = dev(&log, 1, "vda", false);
    assert_eq!(vda.normalised.total_iops, None, "not guessed");
    close(
        vda.normalised.read_bytes_per_s,
        24.0 * 1024.0,
        "DISKREAD before the cut",
    );
    assert!(log.warnings.iter().any(|w| w.contains("ERROR,T0002")));
}

#[test]
fn bad_records_are_counted() {
    let text = "AAA,progname,nmon\nDISKREAD,T0001,1.0\nDISKREAD,Disk Read KB/s h,sda\n\
                ZZZZ,T0001,10:00:00,30-NOV-2026\nDISKREAD,T0001,abc\nDISKREAD,T0001,2.0\n\
                DISKREAD,T0001,3.0\nDISKFUTURE,Disk Future h,sda\nDISKFUTURE,T0001,7\n";
    let log = parse(text).unwrap();
    let lines: Vec<usize> = log.skipped.iter().map(|s| s.line).collect();
    assert_eq!(lines, vec![2, 5, 7], "{:?}", log.skipped);
    let d = dev(&log, 0, "sda", false);
    close(d.value("DISKREAD"), 2.0, "first good record kept");
    close(d.value("DISKFUTURE"), 7.0, "unknown section kept");
    assert!(log.warnings.iter().any(|w| w.contains("DISKFUTURE")));
}

#[test]
fn no_disk_data_is_a_clear_error() {
    let cpu_only = "AAA,progname,nmon\nAAA,host,h\nCPU_ALL,CPU Total h,User%,Sys%\n\
                    ZZZZ,T0001,10:00:00,30-NOV-2026\nCPU_ALL,T0001,1.0,2.0\n";
    let e = parse(cpu_only).unwrap_err();
    assert!(matches!(e, ParseError::UnknownFormat { .. }));
    assert!(e.to_string().contains("no disk statistics"), "{e}");
    let headers_only = "AAA,progname,nmon\nDISKREAD,Disk Read KB/s h,sda\n";
    assert!(parse(headers_only)
        .unwrap_err()
        .to_string()
        .contains("no disk statistics"));
    assert!(parse("hello\n").is_err());
}

#[test]
fn detection() {
    assert!(looks_like(&fix("aix-topas-nmon-7.2.nmon")));
    assert!(!looks_like("zzz ***Mon Nov 30 08:00:00 UTC 2026\n"));
    assert!(!looks_like("Linux 5.8.0 (h) \t12/02/2021\n\nDevice r/s\n"));
    assert!(!looks_like("DISKREAD,T0001,1.0\n"));
}

/// Conformance: the one nmon file of the corpus parses.
#[test]
fn every_corpus_nmon_file_parses() {
    let Some(log) = corpus() else { return };
    let samples: usize = log.reports.iter().map(|r| r.devices.len()).sum();
    assert_eq!(samples, 47 * 16);
}

proptest! {
    /// Any prefix of a fixture parses or fails with an error: never a panic.
    #[test]
    fn truncated_inputs_never_panic(cut in 0usize..6000) {
        let text = fix("linux-16g-l2-continuation-dg.nmon");
        let end = cut.min(text.len());
        let _ = parse(&text[..end]);
    }
}

/// A reader that gives at most 7 bytes per read.
struct Trickle<'a>(&'a [u8]);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(7).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn corpus_file_streams_in_small_reads_as_it_parses_whole() {
    use sizer_parsers::nmon::Nmon;
    use sizer_parsers::sink::Collect;
    use sizer_parsers::{parse_bytes, FormatParser, ParseSettings, Parsed};

    let p = shared(CORPUS);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return;
    }
    let bytes = std::fs::read(&p).unwrap();
    assert!(Nmon.streams());
    let mut src = std::io::BufReader::with_capacity(16, Trickle(&bytes));
    let mut sink = Collect::new();
    Nmon.parse_stream(&mut src, &ParseSettings::default(), &mut sink)
        .unwrap();
    let Some(Parsed::Devices(log)) = sink.into_parsed() else {
        panic!("no device log");
    };
    // Line 732: ZZZZ,T0001,10:24:26,18-AUG-2015; line 745: DISKREAD,T0001,132.1,… (sda);
    // lines 37 and 45: 14 disks and 2 disk groups; T0048 (line 2796) has no disk data.
    assert_eq!(log.reports.len(), 47);
    assert_eq!(log.reports[0].line, 732);
    assert_eq!(
        log.reports[0].time.unwrap().to_string(),
        "2015-08-18 10:24:26"
    );
    close(
        dev(&log, 0, "sda", false).value("DISKREAD"),
        132.1,
        "DISKREAD sda",
    );
    assert_eq!(log.reports[0].devices[0].device, "sda");
    assert!(log.reports.iter().all(|r| r.devices.len() == 16));
    assert_eq!(log.header.as_ref().unwrap().kernel, "4.1.3-100.fc21.x86_64");
    let Ok(Parsed::Devices(whole)) = parse_bytes(&bytes) else {
        panic!("no device log");
    };
    assert_eq!(*whole, *log);
}

#[test]
fn a_sorted_file_streams_in_small_reads_as_it_parses_whole() {
    use sizer_parsers::nmon::Nmon;
    use sizer_parsers::sink::Collect;
    use sizer_parsers::{FormatParser, ParseSettings, Parsed};

    // Sorted, every ZZZZ record comes after all the disk data: reports are still by Tnnnn,
    // with their ZZZZ times.
    let text = fix("linux-16g-l2-continuation-dg.nmon");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    let sorted = lines.join("\n");
    let mut src = std::io::BufReader::with_capacity(16, Trickle(sorted.as_bytes()));
    let mut sink = Collect::new();
    Nmon.parse_stream(&mut src, &ParseSettings::default(), &mut sink)
        .unwrap();
    let Some(Parsed::Devices(log)) = sink.into_parsed() else {
        panic!("no device log");
    };
    let whole = parse(&sorted).unwrap();
    assert_eq!(*log, whole);
    assert_eq!(log.reports.len(), parse(&text).unwrap().reports.len());
    assert!(log
        .reports
        .windows(2)
        .all(|w| w[0].time.unwrap() < w[1].time.unwrap()));
}

#[test]
fn cpu_all_is_each_snapshots_cpu() {
    // nmon-linux-15h-fedora21-g-auto-DG.nmon.txt line 32 (`CPU_ALL,CPU Total test1,User%,Sys%,
    // Wait%,Idle%,Steal%,Busy,CPUs`), line 737 (`CPU_ALL,T0001,14.5,5.5,0.4,79.6,0.0,,4`) and
    // line 760 (`CPU_ALL,T0002,19.2,4.0,7.1,69.6,0.0,,4`): busy = 100 − Idle% − Wait% =
    // 100 − 79.6 − 0.4 = 20.0 and 100 − 69.6 − 7.1 = 23.3; iowait 0.4 and 7.1; the blank Busy
    // cell is unknown, never 0.
    let Some(log) = corpus() else {
        return;
    };
    let c = log.reports[0].cpu.as_ref().expect("T0001 CPU_ALL");
    close(c.busy_pct, 100.0 - 79.6 - 0.4, "busy T0001");
    close(c.iowait_pct, 0.4, "iowait T0001");
    assert!(
        c.values.contains(&("Busy".to_string(), None)),
        "{:?}",
        c.values
    );
    assert!(c.values.contains(&("User%".to_string(), Some(14.5))));
    let c = log.reports[1].cpu.as_ref().expect("T0002 CPU_ALL");
    close(c.busy_pct, 100.0 - 69.6 - 7.1, "busy T0002");
    close(c.iowait_pct, 7.1, "iowait T0002");
}
