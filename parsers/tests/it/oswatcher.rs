//! The OSWatcher `oswiostat` parser on the hand-made archives in `fixtures/oswatcher/` (see its
//! README: no real OSWatcher archive is in the corpus; the fixtures follow oswbb's scripts and
//! `../shared/reference/iostat-sar-formats.md` §5.1). Each value is checked against the fixture
//! line it comes from.

use std::path::Path;

use proptest::prelude::*;
use sizer_parsers::disk::{DeviceLog, DeviceSample};
use sizer_parsers::oswatcher::{looks_like, parse, parse_bytes};
use sizer_parsers::ParseError;

fn bytes(rel: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures/oswatcher")
            .join(rel),
    )
    .unwrap()
}

fn fix(rel: &str) -> DeviceLog {
    parse_bytes(&bytes(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[track_caller]
fn close(a: Option<f64>, b: f64, what: &str) {
    let a = a.unwrap_or_else(|| panic!("{what}: unknown, expected {b}"));
    assert!(
        (a - b).abs() <= 1e-6 * b.abs().max(1.0),
        "{what}: {a} != {b}"
    );
}

fn dev<'a>(log: &'a DeviceLog, report: usize, name: &str) -> &'a DeviceSample {
    log.reports[report]
        .devices
        .iter()
        .find(|d| d.device == name)
        .unwrap_or_else(|| panic!("no {name} in report {report}"))
}

fn times(log: &DeviceLog) -> Vec<String> {
    log.reports
        .iter()
        .map(|r| r.time.map(|t| t.to_string()).unwrap_or_default())
        .collect()
}

const LINUX: &str = "db01_iostat_26.11.30.0800.dat";

#[test]
fn linux_last_third_blocks() {
    // db01_iostat_26.11.30.0800.dat: oswbb 8.1.2, `iostat -xk 1 3` cut to its last report.
    let log = fix(LINUX);
    assert_eq!(log.format, "oswatcher");
    let h = log.header.as_ref().unwrap();
    assert_eq!(h.sysname, "Linux");
    assert_eq!(h.host, "db01.example.com");
    assert_eq!(h.cpus, Some(8), "VCPUS 8");
    assert_eq!(log.reports.len(), 3);
    // Each block is the 3rd report of its run: 2 s after the marker, not since boot.
    assert_eq!(
        times(&log),
        vec![
            "2026-11-30 08:00:02",
            "2026-11-30 08:00:32",
            "2026-11-30 08:01:02"
        ]
    );
    assert!(log.reports.iter().all(|r| !r.since_boot));
    assert_eq!(
        log.reports[0].timestamp.as_deref(),
        Some("Mon Nov 30 08:00:00 UTC 2026")
    );
    assert_eq!(
        log.reports[0].line, 7,
        "the avg-cpu line after the marker of line 6"
    );
    // Line 11: sdb 0.00 0.00 100.00 50.00 6400.00 1600.00 106.67 1.50 10.00 12.00 6.00 5.00 75.00
    let n = &dev(&log, 0, "sdb").normalised;
    close(n.read_iops, 100.0, "r/s");
    close(n.write_iops, 50.0, "w/s");
    close(n.read_bytes_per_s, 6400.0 * 1024.0, "rkB/s");
    close(n.read_await_ms, 12.0, "r_await");
    close(n.write_await_ms, 6.0, "w_await");
    close(n.queue_depth, 1.5, "avgqu-sz");
    close(n.util_pct, 75.0, "%util");
    close(n.avg_request_bytes, 106.67 * 512.0, "avgrq-sz sectors");
    // Line 20: sdb 250 r/s of 64 KiB.
    close(
        dev(&log, 1, "sdb").normalised.read_bytes_per_s,
        16000.0 * 1024.0,
        "rkB/s",
    );
    assert!(log.skipped.is_empty(), "{:?}", log.skipped);
    assert_eq!(log.warnings.len(), 1);
    assert!(log.warnings[0].contains("1-second spot samples") && log.warnings[0].contains("30 s"));
}

#[test]
fn gzip_archive_through_input_decode() {
    let gz = bytes(&format!("{LINUX}.gz"));
    let d = sizer_parsers::input::decode(&gz).unwrap();
    assert!(d.gzip);
    let via_decode = parse(&d.text).unwrap();
    let plain = fix(LINUX);
    assert_eq!(via_decode, plain);
    assert_eq!(parse_bytes(&gz).unwrap(), plain);
    assert!(looks_like(&d.text));
}

#[test]
fn bzip2_and_compress_are_refused_with_the_command() {
    let e = parse_bytes(b"BZh91AY&SY\x00\x01\x02").unwrap_err();
    assert!(matches!(e, ParseError::UnknownFormat { .. }));
    assert!(e.to_string().contains("bunzip2"), "{e}");
    let e = parse_bytes(&[0x1f, 0x9d, 0x90, 0x7a, 0x00]).unwrap_err();
    assert!(e.to_string().contains("uncompress"), "{e}");
    assert!(parse("BZh91AY&SY…")
        .unwrap_err()
        .to_string()
        .contains("bunzip2"));
}

#[test]
fn whole_runs_mark_the_first_report_since_boot() {
    // db02_…-whole-runs.dat: older oswbb kept the whole `iostat -xk 1 3` output (banner + 3
    // reports) after each marker; no OSWbb header line.
    let log = fix("db02_iostat_26.11.30.0900-whole-runs.dat");
    let h = log.header.as_ref().unwrap();
    assert_eq!(h.kernel, "2.6.32-754.35.1.el6.x86_64");
    assert_eq!(h.host, "db02.example.com");
    assert_eq!(h.cpus, Some(16));
    let since: Vec<bool> = log.reports.iter().map(|r| r.since_boot).collect();
    assert_eq!(since, vec![true, false, false, true, false, false]);
    assert_eq!(
        times(&log),
        vec![
            "2026-11-30 09:00:00",
            "2026-11-30 09:00:01",
            "2026-11-30 09:00:02",
            "2026-11-30 09:00:30",
            "2026-11-30 09:00:31",
            "2026-11-30 09:00:32"
        ]
    );
    // Line 13: sda 0.00 0.00 50.00 150.00 400.00 2400.00 28.00 0.60 3.00 4.00 2.67 1.00 20.00
    let n = &dev(&log, 1, "sda").normalised;
    close(n.write_iops, 150.0, "w/s");
    close(n.write_bytes_per_s, 2400.0 * 1024.0, "wkB/s");
    close(n.await_ms, 3.0, "await");
    assert_eq!(log.reports[1].line, 10);
}

#[test]
fn aix_blocks() {
    // aix01_iostat_26.11.30.1000.dat: `iostat -D 1 3` cut to its last report; second block,
    // hdisk1: xfer 92.0 13.1M 1.6K 9.8M 3.3M / read 1.2K 3.5 0.2 1.4S / write 400.0 1.5 … /
    // queue 2.0 0.0 95.0 3.2 5.4 12.0.
    let log = fix("aix01_iostat_26.11.30.1000.dat");
    let h = log.header.as_ref().unwrap();
    assert_eq!((h.sysname.as_str(), h.host.as_str()), ("AIX", "aix01"));
    assert_eq!(
        times(&log),
        vec!["2026-11-30 10:00:02", "2026-11-30 10:01:02"]
    );
    assert!(log.reports.iter().all(|r| !r.since_boot));
    let d = dev(&log, 1, "hdisk1");
    close(d.value("read:maxserv"), 1400.0, "1.4S");
    let n = &d.normalised;
    close(n.read_iops, 1200.0, "1.2K rps");
    close(n.read_bytes_per_s, 9_800_000.0, "9.8M");
    close(n.read_await_ms, 5.5, "3.5 + 2.0");
    close(n.write_await_ms, 3.5, "1.5 + 2.0");
    close(n.queue_depth, 8.6, "3.2 + 5.4");
    close(n.util_pct, 92.0, "%tm_act");
    assert_eq!(
        log.reports[1].line, 30,
        "hdisk0 xfer: after the marker of line 28"
    );
    assert!(log.skipped.is_empty(), "{:?}", log.skipped);
}

#[test]
fn solaris_blocks() {
    // sol01_iostat_26.11.30.1100.dat: `iostat -xn 1 3` cut to its last report.
    let log = fix("sol01_iostat_26.11.30.1100.dat");
    assert_eq!(log.header.as_ref().unwrap().sysname, "SunOS");
    assert_eq!(
        times(&log),
        vec!["2026-11-30 11:00:02", "2026-11-30 11:00:32"]
    );
    assert!(log.reports.iter().all(|r| !r.since_boot));
    // Line 15: 60.0 20.0 480.0 160.0 0.2 0.3 2.5 3.8 2 12 c0t5000CCA02D1E4F21d0
    let n = &dev(&log, 1, "c0t5000CCA02D1E4F21d0").normalised;
    close(n.await_ms, 6.3, "2.5 + 3.8");
    close(n.queue_depth, 0.5, "0.2 + 0.3");
    close(n.read_bytes_per_s, 480.0 * 1024.0, "kr/s");
}

#[test]
fn exadata_cell_sample_interval_and_own_times() {
    // cel01_…: one marker stating `Sample interval: 5 secconds`, then `iostat -xt 5` with
    // sysstat 7.x `Time: hh:mm:ss AM|PM` lines crossing midnight.
    let log = fix("cel01_iostat_exadata-sample-interval.dat");
    assert_eq!(
        times(&log),
        vec![
            "2026-11-30 23:59:52",
            "2026-11-30 23:59:57",
            "2026-12-01 00:00:02"
        ]
    );
    assert!(log.reports.iter().all(|r| r.interval_s == Some(5.0)));
    assert!(log.reports[0].since_boot && !log.reports[1].since_boot);
    assert_eq!(
        log.reports[2].timestamp.as_deref(),
        Some("Time: 12:00:02 AM")
    );
    // Line 16: sda 0.00 0.00 200.00 100.00 12800.00 800.00 90.67 2.40 8.00 3.00 90.00
    let n = &dev(&log, 1, "sda").normalised;
    close(n.read_bytes_per_s, 12800.0 * 1024.0, "rkB/s");
    close(n.await_ms, 8.0, "await");
    assert_eq!(n.read_await_ms, None, "7.x prints no r_await");
    assert_eq!(log.header.as_ref().unwrap().host, "cel01.example.com");
}

/// A `Sample interval` beyond chrono's range (`1e308` s, or `1e13` s: about 317,000 years, past
/// chrono's ±262,143) made the report times `t0 + Duration::milliseconds(…)` overflow and panic
/// (`NaiveDateTime + TimeDelta overflowed`) on the code before issue 14's checked arithmetic. The
/// marker's time is kept; the times of its reports that would be past the range are unknown,
/// with a warning naming the marker line; the other blocks keep their times.
#[test]
fn a_sample_interval_beyond_the_date_range_gives_unknown_times_not_a_panic() {
    let text = String::from_utf8(bytes(LINUX)).unwrap();
    for interval in ["1e308", "1e13"] {
        let marker = "zzz ***Mon Nov 30 08:00:00 UTC 2026";
        assert!(text.contains(marker));
        let mutant = text.replacen(
            marker,
            &format!("{marker} Sample interval: {interval} seconds"),
            1,
        );
        let log = parse_bytes(mutant.as_bytes()).unwrap_or_else(|e| panic!("{interval}: {e}"));
        // Each block is the last third of `iostat -xk 1 3`: its one report is the third
        // sample, 2 intervals after its marker. Line 6's: 2 × 1e308 s (or 2·10^13 s), out of
        // range; the next two blocks state no interval (1 s): 08:00:30 + 2 s, 08:01:00 + 2 s.
        assert_eq!(
            times(&log),
            vec!["", "2026-11-30 08:00:32", "2026-11-30 08:01:02"],
            "{interval}"
        );
        let w = log
            .warnings
            .iter()
            .find(|w| w.contains("line 6") && w.contains("out of the date range"))
            .unwrap_or_else(|| panic!("{interval}: no warning in {:?}", log.warnings));
        assert!(w.contains(interval), "{w}");
    }
}

#[test]
fn bad_blocks_are_counted_with_archive_lines() {
    let text = "Linux OSWbb v8.1.2 h\n\
                zzz ***Mon Nov 30 08:00:00 UTC 2026\n\
                Device:  r/s  w/s  rkB/s\n\
                sda  1.00  2.00\n\
                zzz ***Mon Nov 30 08:00:30 UTC 2026\n\
                sdb  9.00  9.00  9.00\n\
                Device:  r/s  w/s  rkB/s\n\
                sda  1.00  2.00  8.00\n\
                zzz ***Gestern um acht\n\
                Device: r/s\n\
                sda 3.00\n";
    let log = parse(text).unwrap();
    // Block 1: a short line (archive line 4) makes the Linux parser reject the block.
    assert_eq!(log.skipped.len(), 1, "{:?}", log.skipped);
    assert_eq!(log.skipped[0].line, 4);
    assert!(
        log.skipped[0].reason.contains("line 4"),
        "{}",
        log.skipped[0].reason
    );
    // Block 2 starts inside a report (the tail cut): the stray row is warned at its line.
    assert!(
        log.warnings.iter().any(|w| w.starts_with("line 6:")),
        "{:?}",
        log.warnings
    );
    assert_eq!(log.reports.len(), 2);
    assert_eq!(log.reports[0].line, 7);
    close(
        dev(&log, 0, "sda").normalised.read_bytes_per_s,
        8192.0,
        "rkB/s",
    );
    // Block 3: an unreadable marker date gives no time, and a warning naming the line.
    assert_eq!(log.reports[1].time, None);
    assert!(
        log.warnings.iter().any(|w| w.starts_with("line 9:")),
        "{:?}",
        log.warnings
    );
}

#[test]
fn non_iostat_archives_are_clear_errors() {
    let vmstat = "Linux OSWbb v8.1.2 h\nzzz ***Mon Nov 30 08:00:00 UTC 2026\n\
                  procs -----------memory---------- ---swap--\n r  b   swpd   free\n 1  0      0 812345\n";
    let e = parse(vmstat).unwrap_err();
    assert!(matches!(e, ParseError::UnknownFormat { .. }));
    assert!(e.to_string().contains("iostat disk statistics"), "{e}");
    let e = parse("Device: r/s\nsda 1.0\n").unwrap_err();
    assert!(e.to_string().contains("no marker"), "{e}");
    let e = parse("zzz ***Mon Nov 30 08:00:00 UTC 2026\n\n").unwrap_err();
    assert!(e.to_string().contains("no output"), "{e}");
}

#[test]
fn detection() {
    for f in [
        LINUX,
        "aix01_iostat_26.11.30.1000.dat",
        "sol01_iostat_26.11.30.1100.dat",
        "db02_iostat_26.11.30.0900-whole-runs.dat",
    ] {
        let t = String::from_utf8(bytes(f)).unwrap();
        assert!(looks_like(&t), "{f}");
        // The AIX/Solaris parsers leave OSWatcher archives to this one.
        assert!(!sizer_parsers::unix_iostat::looks_like(&t), "{f}");
        assert!(!sizer_parsers::nmon::looks_like(&t), "{f}");
    }
    assert!(!looks_like(
        "Linux 5.8.0 (h) \t12/02/2021\n\nDevice r/s\nsda 1\n"
    ));
    assert!(!looks_like("AAA,progname,nmon\n"));
}

proptest! {
    /// Any prefix of an archive parses or fails with an error: never a panic.
    #[test]
    fn truncated_archives_never_panic(cut in 0usize..3000, which in 0usize..4) {
        let f = [LINUX, "aix01_iostat_26.11.30.1000.dat", "sol01_iostat_26.11.30.1100.dat",
                 "cel01_iostat_exadata-sample-interval.dat"][which];
        let t = String::from_utf8(bytes(f)).unwrap();
        let end = cut.min(t.len());
        let _ = parse(&t[..end]);
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

fn streamed(bytes: &[u8]) -> Result<DeviceLog, ParseError> {
    use sizer_parsers::oswatcher::OsWatcher;
    use sizer_parsers::sink::Collect;
    use sizer_parsers::{FormatParser, ParseSettings, Parsed};

    assert!(OsWatcher.streams());
    let mut src = std::io::BufReader::with_capacity(16, Trickle(bytes));
    let mut sink = Collect::new();
    OsWatcher.parse_stream(&mut src, &ParseSettings::default(), &mut sink)?;
    match sink.into_parsed() {
        Some(Parsed::Devices(log)) => Ok(*log),
        _ => panic!("no device log"),
    }
}

#[test]
fn archives_stream_in_small_reads_as_they_parse_whole() {
    let log = streamed(&bytes(LINUX)).unwrap();
    // Line 1: Linux OSWbb v8.1.2 db01.example.com; line 4: VCPUS 8; line 11: sdb … 100.00 r/s,
    // 6400.00 rkB/s … 75.00 %util, 2 s after the marker of line 6.
    let h = log.header.as_ref().unwrap();
    assert_eq!(h.host, "db01.example.com");
    assert_eq!(h.cpus, Some(8));
    assert_eq!(log.reports.len(), 3);
    assert_eq!(log.reports[0].line, 7);
    assert_eq!(times(&log)[0], "2026-11-30 08:00:02");
    let n = &dev(&log, 0, "sdb").normalised;
    close(n.read_iops, 100.0, "r/s");
    close(n.read_bytes_per_s, 6400.0 * 1024.0, "rkB/s");
    close(n.util_pct, 75.0, "%util");
    close(dev(&log, 0, "sdb").value("%util"), 75.0, "%util as printed");
    assert_eq!(log, fix(LINUX));
    for rel in [
        "aix01_iostat_26.11.30.1000.dat",
        "cel01_iostat_exadata-sample-interval.dat",
        "db02_iostat_26.11.30.0900-whole-runs.dat",
        "sol01_iostat_26.11.30.1100.dat",
    ] {
        assert_eq!(streamed(&bytes(rel)).unwrap(), fix(rel), "{rel}");
    }
}

#[test]
fn compressed_streams_are_refused_from_their_first_bytes() {
    for magic in [&b"BZh91AY&SY\x01\x02"[..], &[0x1f, 0x9d, 0x90, 0x7a, 0x7a]] {
        let e = streamed(magic).unwrap_err().to_string();
        assert!(e.contains("a compressed OSWatcher archive"), "{e}");
        assert_eq!(e, parse_bytes(magic).unwrap_err().to_string());
    }
}

#[test]
fn concatenated_hourly_files_stream_with_the_banner_of_the_whole_archive() {
    // Two hourly archives joined: the second header (lines 7-9) says VCPUS 16, after the
    // first block; the banner handed over before the first report already has it.
    let text = "Linux OSWbb v8.1.2 db01\nSNAP_INTERVAL 30\nVCPUS 8\n\
                zzz ***Mon Nov 30 08:59:30 UTC 2026\n\
                Device:  r/s  w/s  rkB/s  wkB/s  await  %util\n\
                sda     10.00  5.00  80.00  40.00  0.50  1.20\n\
                Linux OSWbb v8.1.2 db01\nSNAP_INTERVAL 30\nVCPUS 16\n\
                zzz ***Mon Nov 30 09:00:00 UTC 2026\n\
                Device:  r/s  w/s  rkB/s  wkB/s  await  %util\n\
                sda     20.00  5.00  160.00  40.00  0.50  2.40\n";
    let log = streamed(text.as_bytes()).unwrap();
    assert_eq!(log, parse(text).unwrap());
    assert_eq!(log.header.as_ref().unwrap().cpus, Some(16));
    assert_eq!(log.header.as_ref().unwrap().host, "db01");
    assert_eq!(log.reports.len(), 2);
    assert_eq!(
        log.reports[1].line, 11,
        "the Device: line after the marker of line 10"
    );
    close(dev(&log, 1, "sda").normalised.read_iops, 20.0, "r/s");
    assert_eq!(times(&log)[1], "2026-11-30 09:00:02");
    assert!(log.skipped.is_empty(), "{:?}", log.skipped);
}
