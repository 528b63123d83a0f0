//! AIX and Solaris `iostat` parsers on the real corpus excerpts (`../shared/corpus/iostat/`, read
//! in place, never copied) and on the hand-made fixtures in `fixtures/aix/` and
//! `fixtures/solaris/` (see their READMEs).
//!
//! Every real value below was read by hand from the cited file and line.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use sizer_parsers::disk::{DeviceLog, DeviceSample};
use sizer_parsers::unix_iostat::{
    looks_like, looks_like_aix, looks_like_solaris, parse, parse_aix, parse_solaris,
};
use sizer_parsers::ParseError;

fn shared(rel: &str) -> PathBuf {
    crate::common::shared("iostat").join(rel)
}

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(rel)
}

/// The text of a corpus file, or `None` (after printing SKIPPED) when the corpus is absent.
fn corpus(rel: &str) -> Option<String> {
    let p = shared(rel);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return None;
    }
    Some(std::fs::read_to_string(&p).unwrap())
}

fn fix(rel: &str) -> String {
    std::fs::read_to_string(fixture(rel)).unwrap()
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

const AIX_CORPUS: &str = "aix-iostat-D-and-plain-EXCERPTS.txt";
const SOL_CORPUS: &str = "solaris-illumos-iostat-xzn-EXCERPTS.txt";

// ---------------------------------------------------------------------------------------------
// AIX, real excerpts
// ---------------------------------------------------------------------------------------------

#[test]
fn aix_corpus_every_excerpt_is_read() {
    let Some(text) = corpus(AIX_CORPUS) else {
        return;
    };
    assert!(looks_like_aix(&text));
    assert!(!looks_like_solaris(&text));
    let log = parse(&text).unwrap();
    assert_eq!(log.format, "aix_iostat");
    // Excerpt A: two -D reports of hdisk6 (lines 5 and 15); B: plain, since boot (line 31);
    // C: plain on a shared-processor LPAR (line 44).
    let lines: Vec<usize> = log.reports.iter().map(|r| r.line).collect();
    assert_eq!(lines, vec![5, 15, 31, 44]);
    let since: Vec<bool> = log.reports.iter().map(|r| r.since_boot).collect();
    assert_eq!(since, vec![true, false, true, true]);
    // The three `### EXCERPT` comment lines are counted skips, nothing else.
    let skipped: Vec<usize> = log.skipped.iter().map(|s| s.line).collect();
    assert_eq!(skipped, vec![1, 23, 37], "{:?}", log.skipped);
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
    // Line 3: `System configuration: lcpu=8 drives=1 paths=2 vdisks=2`.
    assert_eq!(log.header.as_ref().unwrap().cpus, Some(8));
    assert_eq!(log.header.as_ref().unwrap().sysname, "AIX");
}

#[test]
fn aix_corpus_excerpt_a_dash_d_with_k_suffix() {
    // Lines 15-22: hdisk6 xfer: 9.6 16.4K 4.0 16.4K 0.0 / read: 4.0 4.9 0.3 9.9 0 0 /
    // write: 0.0 … / queue: 0.0 0.0 0.0 0.0 0.0 0.0.
    let Some(text) = corpus(AIX_CORPUS) else {
        return;
    };
    let log = parse_aix(&text).unwrap();
    let d = dev(&log, 1, "hdisk6");
    close(d.value("xfer:%tm_act"), 9.6, "%tm_act");
    close(d.value("xfer:bps"), 16_400.0, "bps 16.4K (×1000)");
    close(d.value("read:maxserv"), 9.9, "read maxserv");
    close(d.value("read:minserv"), 0.3, "read minserv");
    let n = &d.normalised;
    close(n.read_iops, 4.0, "rps");
    close(n.write_iops, 0.0, "wps");
    close(n.total_iops, 4.0, "tps");
    close(n.read_bytes_per_s, 16_400.0, "bread 16.4K");
    close(n.write_bytes_per_s, 0.0, "bwrtn");
    close(n.util_pct, 9.6, "%tm_act");
    // avgserv 4.9 + avgtime 0.0.
    close(n.read_await_ms, 4.9, "read await");
    close(n.await_ms, 4.9, "await weighted by rps/wps");
    close(n.service_ms, 4.9, "service");
    close(n.queue_depth, 0.0, "avgwqsz + avgsqsz");
    close(n.avg_request_bytes, 4100.0, "16.4K / 4.0");
    assert_eq!(n.total_bytes_per_s, None, "bps is not a split-less total");
    // Lines 5-12, the since-boot report: all zero, printed, so 0 (never None) where printed.
    let d0 = dev(&log, 0, "hdisk6");
    close(d0.normalised.read_iops, 0.0, "since-boot rps");
    assert_eq!(
        d0.normalised.await_ms, None,
        "no transfers: no weighted latency"
    );
}

#[test]
fn aix_corpus_plain_excerpts_b_and_c() {
    // Line 36: `hdisk0 36.0 324.0 64.0 32 292`; line 33: `hdisk9 0.0 8.0 2.0 0 8`;
    // line 44: `hdisk11 0.0 0.8 0.1 919576 14296158`.
    let Some(text) = corpus(AIX_CORPUS) else {
        return;
    };
    let log = parse_aix(&text).unwrap();
    assert_eq!(log.reports[2].devices.len(), 6);
    let d = dev(&log, 2, "hdisk0");
    close(d.value("% tm_act"), 36.0, "% tm_act (two header tokens)");
    close(d.value("Kb_read"), 32.0, "Kb_read");
    close(d.value("Kb_wrtn"), 292.0, "Kb_wrtn");
    let n = &d.normalised;
    close(n.total_bytes_per_s, 324.0 * 1024.0, "Kbps × 1024");
    close(n.total_iops, 64.0, "tps");
    close(n.util_pct, 36.0, "% tm_act");
    assert_eq!(n.read_bytes_per_s, None, "plain iostat has no read rate");
    assert_eq!(n.read_iops, None);
    close(
        dev(&log, 2, "hdisk9").normalised.total_iops,
        2.0,
        "hdisk9 tps",
    );
    let d = dev(&log, 3, "hdisk11");
    close(d.value("Kb_wrtn"), 14_296_158.0, "Kb_wrtn");
    close(d.normalised.total_bytes_per_s, 0.8 * 1024.0, "Kbps");
    close(d.normalised.total_iops, 0.1, "tps");
}

// ---------------------------------------------------------------------------------------------
// AIX, fixtures
// ---------------------------------------------------------------------------------------------

#[test]
fn aix_fixture_dash_d_suffixes_and_latency() {
    // fixtures/aix/iostat-D-suffixes.txt, second report, hdisk1:
    // xfer 99.9 20.5M 2.5K 16.4M 4.1M / read 2.0K 6.0 0.1 2.5S / write 500.0 3.0 0.2 500.0 /
    // queue 10.0 0.0 3.0S 25.0 13.5 25.0.
    let log = parse_aix(&fix("aix/iostat-D-suffixes.txt")).unwrap();
    assert_eq!(log.reports.len(), 2);
    assert!(log.reports[0].since_boot && !log.reports[1].since_boot);
    assert_eq!(log.header.as_ref().unwrap().cpus, Some(16));
    let d = dev(&log, 1, "hdisk1");
    close(d.value("read:maxserv"), 2500.0, "2.5S in ms");
    close(d.value("queue:maxtime"), 3000.0, "3.0S in ms");
    close(d.value("queue:sqfull"), 25.0, "sqfull");
    let n = &d.normalised;
    close(n.read_iops, 2000.0, "2.0K rps");
    close(n.write_iops, 500.0, "wps");
    close(n.total_iops, 2500.0, "2.5K tps");
    close(n.read_bytes_per_s, 16_400_000.0, "16.4M");
    close(n.write_bytes_per_s, 4_100_000.0, "4.1M");
    close(n.read_await_ms, 16.0, "6.0 + 10.0");
    close(n.write_await_ms, 13.0, "3.0 + 10.0");
    close(
        n.await_ms,
        (2000.0 * 16.0 + 500.0 * 13.0) / 2500.0,
        "weighted",
    );
    close(
        n.service_ms,
        (2000.0 * 6.0 + 500.0 * 3.0) / 2500.0,
        "weighted avgserv",
    );
    close(n.queue_depth, 38.5, "25.0 + 13.5");
    close(n.util_pct, 99.9, "%tm_act");
    close(n.avg_request_bytes, 20_500_000.0 / 2500.0, "bps / tps");
    close(n.read_request_bytes, 8200.0, "16.4M / 2.0K");
    // First report hdisk0: 4 reads of 8 KiB print 32.8K.
    close(
        dev(&log, 0, "hdisk0").normalised.read_bytes_per_s,
        32_800.0,
        "32.8K",
    );
}

#[test]
fn aix_fixture_plain_with_time_column() {
    // fixtures/aix/iostat-plain-T.txt: `-T` puts HH:MM:SS in a `time` column.
    let log = parse_aix(&fix("aix/iostat-plain-T.txt")).unwrap();
    assert_eq!(log.reports.len(), 2);
    assert_eq!(log.reports[0].timestamp.as_deref(), Some("09:00:00"));
    assert_eq!(log.reports[1].timestamp.as_deref(), Some("09:01:00"));
    assert_eq!(log.reports[1].time, None, "a time of day only");
    let d = dev(&log, 1, "hdisk1");
    assert!(d.values.iter().all(|(n, _)| n != "time"));
    close(d.normalised.total_bytes_per_s, 1024.0 * 1024.0, "1024 KB/s");
    close(d.normalised.avg_request_bytes, 8192.0, "1 MiB/s / 128 tps");
    close(d.value("Kb_read"), 46_080.0, "Kb_read");
    assert_eq!(log.reports[1].devices.len(), 3);
}

#[test]
fn aix_cut_block_is_counted_not_guessed() {
    // fixtures/aix/bad-D-cut.txt: the write: values line (line 9) has 5 of 6 values, and the
    // file ends after the queue: header (line 10).
    let log = parse_aix(&fix("aix/bad-D-cut.txt")).unwrap();
    let lines: Vec<usize> = log.skipped.iter().map(|s| s.line).collect();
    assert_eq!(lines, vec![9, 10], "{:?}", log.skipped);
    assert!(
        log.skipped[0].reason.contains("'write:'"),
        "{:?}",
        log.skipped
    );
    assert!(log.skipped[1].reason.contains("cut"), "{:?}", log.skipped);
    let n = &dev(&log, 0, "hdisk0").normalised;
    close(n.read_iops, 2.0, "rps read before the cut");
    assert_eq!(
        n.write_iops, None,
        "the write stanza was cut: unknown, not 0"
    );
    assert_eq!(n.read_await_ms, None, "no queue stanza: no await");
    assert_eq!(n.queue_depth, None);
}

#[test]
fn aix_cpu_only_and_long_layout_are_errors() {
    let e = parse_aix(&fix("aix/cpu-only.txt")).unwrap_err();
    assert!(matches!(e, ParseError::UnknownFormat { .. }), "{e}");
    assert!(e.to_string().contains("only tty/CPU"), "{e}");
    let long = "Disks:                     xfers                                read\n\
                -------------- -------------------------------- -----------\n";
    let e = parse_aix(long).unwrap_err();
    assert!(e.to_string().contains("-l"), "{e}");
    assert!(e.to_string().contains("line 1"), "{e}");
}

#[test]
fn aix_adapter_rows_are_groups_and_unknown_time_unit_is_unknown() {
    let text = "Adapter:                  Kbps      tps    Kb_read   Kb_wrtn\n\
                fcs0                    2048.0    256.0      61440         0\n\n\
                Disks:         % tm_act     Kbps      tps    Kb_read   Kb_wrtn\n\
                hdisk2           40.0    2048.0    256.0      61440         0\n";
    let log = parse_aix(text).unwrap();
    assert!(dev(&log, 0, "fcs0").group);
    assert!(!dev(&log, 0, "hdisk2").group);
    let d = "hdisk0 xfer: %tm_act bps tps bread bwrtn\n 1.0 4.1K 1.0 4.1K 0.0\n\
             read: rps avgserv minserv maxserv timeouts fails\n 1.0 2.0 0.1 2.0M 0 0\n";
    let log = parse_aix(d).unwrap();
    assert_eq!(dev(&log, 0, "hdisk0").value("read:maxserv"), None);
    assert!(
        log.warnings.iter().any(|w| w.contains("line 4")),
        "{:?}",
        log.warnings
    );
}

// ---------------------------------------------------------------------------------------------
// Solaris, real excerpts
// ---------------------------------------------------------------------------------------------

#[test]
fn solaris_corpus_every_excerpt_is_read() {
    let Some(text) = corpus(SOL_CORPUS) else {
        return;
    };
    assert!(looks_like_solaris(&text));
    assert!(!looks_like_aix(&text));
    let log = parse(&text).unwrap();
    assert_eq!(log.format, "solaris_iostat");
    let lines: Vec<usize> = log.reports.iter().map(|r| r.line).collect();
    assert_eq!(lines, vec![3, 14, 25, 30, 37]);
    let counts: Vec<usize> = log.reports.iter().map(|r| r.devices.len()).collect();
    assert_eq!(counts, vec![7, 8, 3, 4, 5]);
    assert!(log.reports[0].since_boot);
    // The `### EXCERPT` lines and the two shell prompts are counted skips.
    let skipped: Vec<usize> = log.skipped.iter().map(|s| s.line).collect();
    assert_eq!(skipped, vec![1, 2, 12, 13, 24, 29, 36], "{:?}", log.skipped);
}

#[test]
fn solaris_corpus_excerpts_a_b_xzn() {
    // Line 4: `212.2 13.0 3609.6 1228.8 0.1 0.1 0.4 0.4 3 6 c2d0`;
    // line 7: `129.2 356.0 356.3 5038.1 0.0 2.3 0.0 4.8 0 57 c0t18d0`;
    // line 23: `269.2 113.9 505.4 686.8 3.1 0.3 8.1 0.8 1 3 zones`.
    let Some(text) = corpus(SOL_CORPUS) else {
        return;
    };
    let log = parse_solaris(&text).unwrap();
    let n = &dev(&log, 0, "c2d0").normalised;
    close(n.read_iops, 212.2, "r/s");
    close(n.write_iops, 13.0, "w/s");
    close(n.read_bytes_per_s, 3609.6 * 1024.0, "kr/s");
    close(n.write_bytes_per_s, 1228.8 * 1024.0, "kw/s");
    close(n.queue_depth, 0.2, "wait + actv");
    close(n.await_ms, 0.8, "wsvc_t + asvc_t");
    close(n.service_ms, 0.4, "asvc_t");
    close(n.util_pct, 6.0, "%b");
    let d = dev(&log, 0, "c0t18d0");
    close(d.normalised.service_ms, 4.8, "asvc_t");
    close(d.normalised.util_pct, 57.0, "%b");
    close(d.value("%w"), 0.0, "%w kept");
    let n = &dev(&log, 1, "zones").normalised;
    close(n.queue_depth, 3.4, "3.1 + 0.3");
    close(n.await_ms, 8.9, "8.1 + 0.8");
    close(n.total_iops, 269.2 + 113.9, "r/s + w/s");
    close(
        dev(&log, 1, "lofi1").normalised.read_bytes_per_s,
        61.7 * 1024.0,
        "lofi1 kr/s",
    );
}

#[test]
fn solaris_corpus_excerpts_c_d_e() {
    // Line 26 (-xne): `0.9 2.8 7.3 1.8 0.0 0.0 2.7 9.3 1 2 0 0 0 0 d0`;
    // line 33: `0.2 2.1 2.9 21.3 0.0 0.1 19.2 49.5 0 0 c1t0d0`, line 35 `… sol:vold(pid1533)`;
    // line 40 (device first, svc_t): `sd0 0.0 0.0 0.4 0.4 0.0 0.0 49.5 0 0`.
    let Some(text) = corpus(SOL_CORPUS) else {
        return;
    };
    let log = parse_solaris(&text).unwrap();
    let d = dev(&log, 2, "d0");
    close(d.value("tot"), 0.0, "-e tot kept");
    close(d.value("%w"), 1.0, "%w");
    close(d.normalised.await_ms, 12.0, "2.7 + 9.3");
    close(d.normalised.write_iops, 2.8, "w/s");
    let n = &dev(&log, 3, "c1t0d0").normalised;
    close(n.await_ms, 68.7, "19.2 + 49.5");
    close(n.write_bytes_per_s, 21.3 * 1024.0, "kw/s");
    dev(&log, 3, "sol:vold(pid1533)");
    let d = dev(&log, 4, "sd0");
    close(
        d.normalised.await_ms,
        49.5,
        "svc_t is the whole response time",
    );
    assert_eq!(
        d.normalised.service_ms, None,
        "no asvc_t in the svc_t layout"
    );
    close(d.normalised.read_bytes_per_s, 0.4 * 1024.0, "kr/s");
    close(
        dev(&log, 4, "nfs49").normalised.await_ms,
        15.1,
        "nfs49 svc_t",
    );
    // fd0 (line 39) carries tty/cpu values `0 0 0 0 0 100`: left out of the device, and (since
    // issue 13) read as the report's host CPU (`tests/it/os_cpu.rs`), so no warning for line 38.
    let fd0 = dev(&log, 4, "fd0");
    assert_eq!(fd0.values.len(), 9);
    assert!(fd0.value("id").is_none());
    close(
        log.reports[4].cpu.as_ref().and_then(|c| c.busy_pct),
        0.0,
        "us sy wt id = 0 0 0 100",
    );
    assert!(!log.warnings.iter().any(|w| w.starts_with("line 38:")));
}

// ---------------------------------------------------------------------------------------------
// Solaris, fixtures
// ---------------------------------------------------------------------------------------------

#[test]
fn solaris_fixture_dash_t_d_controllers_and_nfs() {
    // fixtures/solaris/iostat-xnCz-Td.txt: `iostat -xnCz -T d 5 3`.
    let log = parse_solaris(&fix("solaris/iostat-xnCz-Td.txt")).unwrap();
    assert_eq!(log.reports.len(), 3);
    let r = &log.reports[1];
    assert_eq!(r.timestamp.as_deref(), Some("Mon Nov 30 09:00:05 UTC 2026"));
    assert_eq!(r.time.unwrap().to_string(), "2026-11-30 09:00:05");
    assert!(!r.utc);
    assert!(log.reports[0].since_boot && !r.since_boot);
    assert!(dev(&log, 1, "c1").group, "controller total");
    assert!(!dev(&log, 1, "c1t0d0").group);
    let n = &dev(&log, 1, "c1t0d0").normalised;
    close(n.read_iops, 100.0, "r/s");
    close(n.read_bytes_per_s, 800.0 * 1024.0, "kr/s");
    close(n.queue_depth, 2.0, "0.5 + 1.5");
    close(n.await_ms, 13.3, "3.3 + 10.0");
    close(
        n.avg_request_bytes,
        (2400.0 * 1024.0) / 150.0,
        "(kr+kw)/(r+w)",
    );
    dev(&log, 0, "nfs01.example.com:/export/home");
    assert_eq!(log.reports[2].devices.len(), 4);
    assert!(log
        .warnings
        .iter()
        .any(|w| w.contains("<<device added: sd7>>")));
}

#[test]
fn solaris_fixture_megabytes_and_epoch() {
    // fixtures/solaris/iostat-xnM-Tu.txt: `-M` (Mr/s Mw/s) and `-T u` epoch lines.
    let log = parse_solaris(&fix("solaris/iostat-xnM-Tu.txt")).unwrap();
    let r = &log.reports[1];
    assert!(r.utc);
    assert_eq!(r.time.unwrap().to_string(), "2026-11-29 09:01:00");
    let n = &dev(&log, 1, "c0t0d0").normalised;
    close(n.read_bytes_per_s, 64.0 * 1_048_576.0, "Mr/s");
    close(n.write_bytes_per_s, 32.0 * 1_048_576.0, "Mw/s");
    close(n.avg_request_bytes, 131_072.0, "96 MiB/s / 768");
    close(n.queue_depth, 8.1, "1.2 + 6.9");
}

#[test]
fn solaris_short_row_is_counted() {
    let log = parse_solaris(&fix("solaris/bad-short-row.txt")).unwrap();
    assert_eq!(log.skipped.len(), 1);
    assert_eq!(log.skipped[0].line, 4);
    assert!(log.skipped[0].reason.contains("found 7 fields"));
    assert_eq!(log.reports[0].devices.len(), 1);
}

#[test]
fn no_device_data_is_a_clear_error() {
    let e = parse_solaris("                    extended device statistics\n").unwrap_err();
    assert!(e.to_string().contains("no disk statistics"), "{e}");
    let e = parse("hello\nworld\n").unwrap_err();
    assert!(matches!(e, ParseError::UnknownFormat { .. }));
}

// ---------------------------------------------------------------------------------------------
// Detection
// ---------------------------------------------------------------------------------------------

#[test]
fn detection_does_not_claim_other_formats() {
    let linux = "Linux 5.8.0 (h) \t12/02/2021 \t_x86_64_\t(2 CPU)\n\n\
                 Device  r/s  w/s  rkB/s  wkB/s  r_await  aqu-sz  %util\nsda 1 1 1 1 1 1 1\n";
    let freebsd = "                        extended device statistics\n\
                   device     r/s   w/s    kr/s    kw/s  ms/r  ms/w  ms/o  ms/t qlen  %b\n\
                   ada0         0     3     0.0    31.9     0     1     0     1    0   0\n";
    let aix_sar = "AIX aixhost 1 7 00C5D8B14C00    06/12/17\n\n\
                   System configuration: lcpu=8 ent=0.50 mode=Uncapped\n\n\
                   10:00:01     device    %busy    avque    r+w/s    Kbs/s   avwait   avserv\n";
    let osw = "zzz ***Mon Nov 30 10:00:00 CST 2026\n\
               hdisk0 xfer: %tm_act bps tps bread bwrtn\n";
    let nmon = "AAA,progname,nmon\nDISKBUSY,Disk %Busy h,sda\n";
    for t in [linux, freebsd, aix_sar, osw, nmon] {
        assert!(!looks_like(t), "{t}");
    }
    for f in ["aix/iostat-D-suffixes.txt", "aix/iostat-plain-T.txt"] {
        assert!(looks_like_aix(&fix(f)), "{f}");
    }
    for f in ["solaris/iostat-xnCz-Td.txt", "solaris/iostat-xnM-Tu.txt"] {
        assert!(looks_like_solaris(&fix(f)), "{f}");
    }
}

/// Conformance: every AIX and Solaris corpus file of the corpus parses (two files: the
/// excerpt collections; the other corpus files are Linux, sar or nmon).
#[test]
fn every_corpus_file_of_these_formats_parses() {
    for (f, format) in [(AIX_CORPUS, "aix_iostat"), (SOL_CORPUS, "solaris_iostat")] {
        let Some(text) = corpus(f) else { return };
        let log = parse(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!(log.format, format);
        assert!(log.reports.iter().all(|r| !r.devices.is_empty()));
    }
}

proptest! {
    /// Any prefix of a fixture is a log, a counted skip or a positioned error: never a panic.
    #[test]
    fn truncated_inputs_never_panic(cut in 0usize..4000, which in 0usize..4) {
        let f = ["aix/iostat-D-suffixes.txt", "aix/iostat-plain-T.txt",
                 "solaris/iostat-xnCz-Td.txt", "solaris/iostat-xnM-Tu.txt"][which];
        let text = fix(f);
        let mut end = cut.min(text.len());
        while !text.is_char_boundary(end) { end -= 1; }
        let _ = parse_aix(&text[..end]);
        let _ = parse_solaris(&text[..end]);
    }
}

/// No corpus file of another format is claimed by the AIX, Solaris, nmon or OSWatcher
/// detectors, and each of their own corpus files is claimed by its detector only.
#[test]
fn detectors_over_the_whole_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if !root.exists() {
        crate::common::corpus_absent(&root);
        return;
    }
    let mut n = 0;
    for dir in ["iostat", "sysstat-tests/tests", "awr", "vsan"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            let bytes = std::fs::read(&p).unwrap();
            let Ok(d) = sizer_parsers::input::decode(&bytes) else {
                continue;
            };
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let got = (
                looks_like_aix(&d.text),
                looks_like_solaris(&d.text),
                sizer_parsers::nmon::looks_like(&d.text),
                sizer_parsers::oswatcher::looks_like(&d.text),
            );
            let want = (
                name == AIX_CORPUS,
                name == SOL_CORPUS,
                name.starts_with("nmon-"),
                false,
            );
            assert_eq!(got, want, "{name}");
            n += 1;
        }
    }
    assert!(n > 100, "{n} files");
}
