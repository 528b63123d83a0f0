//! Host CPU ([`DeviceReport::cpu`]) from the OS formats read since issue 13 item 8: `sadf -d`,
//! `sadf -j`, `iostat -o JSON`, OSWatcher, AIX and Solaris `iostat`. Every value was read by
//! hand from the file and line quoted above it; busy % = 100 − idle − iowait (IO wait is idle
//! time with IO outstanding, as AWR's `IDLE_TIME` holds `IOWAIT_TIME`).

use std::path::Path;

use crate::common::*;

use sizer_parsers::disk::{CpuUtil, DeviceLog, DeviceReport};
use sizer_parsers::{parse_file, Parsed};

/// The device log of a file (detection, parser and checked sink, as the engine reads it).
fn log(p: &Path) -> DeviceLog {
    match parse_file(p) {
        Ok(Parsed::Devices(l)) => *l,
        Ok(other) => panic!("{}: not a device log: {other:?}", p.display()),
        Err(e) => panic!("{}: {e}", p.display()),
    }
}

/// A corpus file's log, or `None` (SKIPPED, or a failure under CI) when the corpus is absent.
fn corpus(rel: &str) -> Option<DeviceLog> {
    let p = shared(rel);
    if !p.exists() {
        corpus_absent(&p);
        return None;
    }
    Some(log(&p))
}

fn at<'a>(l: &'a DeviceLog, stamp: &str) -> &'a DeviceReport {
    l.reports
        .iter()
        .find(|r| r.timestamp.as_deref() == Some(stamp))
        .unwrap_or_else(|| panic!("no report at {stamp}"))
}

fn cpu(r: &DeviceReport) -> &CpuUtil {
    r.cpu
        .as_ref()
        .unwrap_or_else(|| panic!("report of line {} has no CPU", r.line))
}

fn col(c: &CpuUtil, name: &str) -> Option<f64> {
    c.values
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no CPU column '{name}' in {:?}", c.values))
        .1
}

fn has_device(r: &DeviceReport, name: &str) -> bool {
    r.devices.iter().any(|d| d.device == name)
}

#[test]
fn sadf_d_corpus_all_cpus_row() {
    // sysstat-tests/tests/expected.sadf-d line 2 (header line 1 `CPU;%usr;…;%iowait;…;%idle`):
    // `SYSSTAT.TEST;31;2019-04-18 13:20:19 UTC;-1;2.15;12.50;1.84;0.12;0.00;0.34;0.19;0.00;0.00;82.88`
    // busy = 100 − 82.88 − 0.12 = 17.00. Line 608 (after a restart):
    // `…;2019-04-18 13:54:35 UTC;-1;2.67;19.49;2.13;0.97;0.00;1.18;0.21;0.00;0.00;73.34`
    // busy = 100 − 73.34 − 0.97 = 25.69. The rows of CPU 0, 1, … are not the host's.
    let Some(l) = corpus("sysstat-tests/tests/expected.sadf-d") else {
        return;
    };
    let c = cpu(at(&l, "2019-04-18 13:20:19 UTC"));
    close(c.busy_pct, 100.0 - 82.88 - 0.12, "busy 13:20:19");
    close(c.iowait_pct, 0.12, "iowait 13:20:19");
    close(col(c, "%usr"), 2.15, "%usr");
    close(col(c, "%nice"), 12.50, "%nice");
    let c = cpu(at(&l, "2019-04-18 13:54:35 UTC"));
    close(c.busy_pct, 100.0 - 73.34 - 0.97, "busy 13:54:35");
    close(c.iowait_pct, 0.97, "iowait 13:54:35");
    // Every report with disks has its CPU: the `-u` section covers each time stamp.
    assert!(l.reports.iter().all(|r| r.cpu.is_some()));
}

#[test]
fn sadf_dt_10_1_5_corpus_after_pasted_sar_u() {
    // iostat/linux-sar-AMPM-and-sadf-dT-10.1.5-centos7-EXCERPT.txt line 11 (header line 10
    // `CPU;%usr;…;%idle`, sysstat 10.1.5 `sadf -dT`, local time without a zone):
    // `d0cc44ac1f1c.mylabserver.com;601;2020-10-01 21:30:01;-1;0.09;0.00;0.08;0.00;0.03;…;99.79`
    // busy = 100 − 99.79 − 0.00 = 0.21 (`%steal` 0.03 counts as busy). The pasted `sar -u`
    // text before it (lines 5-8) is not sadf output and is left out.
    let Some(l) = corpus("iostat/linux-sar-AMPM-and-sadf-dT-10.1.5-centos7-EXCERPT.txt") else {
        return;
    };
    let c = cpu(at(&l, "2020-10-01 21:30:01"));
    close(c.busy_pct, 100.0 - 99.79 - 0.0, "busy");
    close(c.iowait_pct, 0.0, "iowait");
    close(col(c, "%steal"), 0.03, "%steal");
}

#[test]
fn sadf_j_corpus_cpu_load_all() {
    // sysstat-tests/tests/expected.sadf-j line 16 (`"cpu-load"` of the 13:20:19 record, line 14):
    // `{"cpu": "all", "usr": 2.15, "nice": 12.50, "sys": 1.84, "iowait": 0.12, …, "idle": 82.88}`
    // busy = 100 − 82.88 − 0.12 = 17.00, as sadf -d's same record. Line 523 (13:20:49):
    // `"usr": 6.21, "nice": 8.70, "sys": 6.64, "iowait": 0.49, "steal": 0.39, …, "idle": 75.90`
    // busy = 100 − 75.90 − 0.49 = 23.61 (steal counts as busy).
    let Some(l) = corpus("sysstat-tests/tests/expected.sadf-j") else {
        return;
    };
    let c = cpu(at(&l, "2019-04-18 13:20:19 UTC"));
    close(c.busy_pct, 100.0 - 82.88 - 0.12, "busy 13:20:19");
    close(c.iowait_pct, 0.12, "iowait");
    close(col(c, "usr"), 2.15, "usr");
    assert!(
        c.values.iter().all(|(n, _)| n != "cpu"),
        "the label is no value"
    );
    let c = cpu(at(&l, "2019-04-18 13:20:49 UTC"));
    close(c.busy_pct, 100.0 - 75.90 - 0.49, "busy 13:20:49");
    close(col(c, "steal"), 0.39, "steal");
}

#[test]
fn iostat_json_corpus_avg_cpu() {
    // sysstat-tests/tests/expected.iostat-x-p-ALL-JSON line 12 (first statistics element):
    // `"avg-cpu":  {"user": 1.49, "nice": 39.91, "system": 1.67, "iowait": 0.94, "steal": 0.00, "idle": 56.00}`
    // busy = 100 − 56.00 − 0.94 = 43.06; line 39: idle 82.89, iowait 0.12: busy 16.99.
    let Some(l) = corpus("sysstat-tests/tests/expected.iostat-x-p-ALL-JSON") else {
        return;
    };
    let c = cpu(&l.reports[0]);
    close(c.busy_pct, 100.0 - 56.00 - 0.94, "busy 0");
    close(c.iowait_pct, 0.94, "iowait 0");
    close(col(c, "nice"), 39.91, "nice");
    close(cpu(&l.reports[1]).busy_pct, 100.0 - 82.89 - 0.12, "busy 1");
}

#[test]
fn sadf_fixtures_cpu_rows() {
    // fixtures/sadf/d-two-versions.csv line 3:
    // `db01.example.com;600;2024-03-11 10:10:01 UTC;-1;12.00;0.00;3.00;4.50;0.00;80.50`
    // busy = 100 − 80.50 − 4.50 = 15.00.
    let l = log(&fixture("sadf/d-two-versions.csv"));
    let c = cpu(at(&l, "2024-03-11 10:10:01 UTC"));
    close(c.busy_pct, 15.0, "busy");
    close(c.iowait_pct, 4.5, "iowait");
    // fixtures/sadf/dh-T-zone-decimal-comma.csv line 2 (`-h`, decimal commas): the `-1` item
    // `-1;2,00;0,00;1,00;0,50;0,00;96,50`: busy = 100 − 96.50 − 0.50 = 3.00; CPUs 0 and 1 follow.
    let l = log(&fixture("sadf/dh-T-zone-decimal-comma.csv"));
    let c = cpu(at(&l, "2024-01-15 09:05:00 CET"));
    close(c.busy_pct, 3.0, "busy -dh");
    close(col(c, "%idle"), 96.5, "%idle -dh");
    // fixtures/sadf/j-11-utc-disk-io.json line 14:
    // `{"cpu": "all", "user": 6.10, "nice": 0.00, "system": 2.40, "iowait": 1.50, "steal": 0.00, "idle": 90.00}`
    // busy = 100 − 90.00 − 1.50 = 8.50.
    let l = log(&fixture("sadf/j-11-utc-disk-io.json"));
    let c = cpu(&l.reports[0]);
    close(c.busy_pct, 8.5, "busy -j");
    close(c.iowait_pct, 1.5, "iowait -j");
    // fixtures/sadf/d-u-iowait.csv line 2: `wait01.example.com;600;2026-11-30 08:10:00 UTC;-1;1.50;0.00;0.50;96.00;0.00;2.00`
    // busy = 100 − 2.00 − 96.00 = 2.00, iowait 96.00 (CPU 1's 100.00 is not the host's).
    let l = log(&fixture("sadf/d-u-iowait.csv"));
    let c = cpu(at(&l, "2026-11-30 08:10:00 UTC"));
    close(c.busy_pct, 2.0, "busy iowait fixture");
    close(c.iowait_pct, 96.0, "iowait fixture");
}

#[test]
fn sadf_d_cpu_unknown_cell_stays_unknown() {
    // An `%iowait` cell that is no number: the iowait and the busy (which needs it) are
    // unknown, never 0, and a warning names the line; the disk row is still read.
    let text = "# hostname;interval;timestamp;CPU;%user;%nice;%system;%iowait;%steal;%idle\n\
                h;60;2026-01-01 00:01:00 UTC;-1;5.00;0.00;1.00;x;0.00;90.00\n\
                # hostname;interval;timestamp;DEV;tps;rkB/s;wkB/s;areq-sz;aqu-sz;await;svctm;%util\n\
                h;60;2026-01-01 00:01:00 UTC;sda;10.00;40.00;0.00;4.00;0.01;1.00;1.00;1.00\n";
    let l = sizer_parsers::sadf::parse(text).unwrap();
    let c = cpu(&l.reports[0]);
    assert_eq!((c.busy_pct, c.iowait_pct), (None, None));
    assert_eq!(col(c, "%idle"), Some(90.0));
    assert!(
        l.warnings
            .iter()
            .any(|w| w.starts_with("line 2: CPU column '%iowait'")),
        "{:?}",
        l.warnings
    );
    assert_eq!(l.reports[0].devices.len(), 1);
}

#[test]
fn oswatcher_linux_blocks_keep_avg_cpu() {
    // fixtures/oswatcher/db01_iostat_26.11.30.0800.dat lines 7-8 (the 08:00:00 snapshot):
    // `avg-cpu:  %user   %nice %system %iowait  %steal   %idle`
    // `            4.12    0.00    1.03    0.52    0.00   94.33`
    // busy = 100 − 94.33 − 0.52 = 5.15; lines 16-17 (08:00:30): `2.01 0.00 0.75 0.25 0.00 96.99`:
    // busy = 100 − 96.99 − 0.25 = 2.76.
    let l = log(&fixture("oswatcher/db01_iostat_26.11.30.0800.dat"));
    let c = cpu(&l.reports[0]);
    close(c.busy_pct, 100.0 - 94.33 - 0.52, "busy 0");
    close(c.iowait_pct, 0.52, "iowait 0");
    close(col(c, "%user"), 4.12, "%user 0");
    close(cpu(&l.reports[1]).busy_pct, 100.0 - 96.99 - 0.25, "busy 1");
    // The AIX `iostat -D` blocks print no tty/CPU line: unknown, never 0.
    let l = log(&fixture("oswatcher/aix01_iostat_26.11.30.1000.dat"));
    assert!(l.reports.iter().all(|r| r.cpu.is_none()));
}

#[test]
fn aix_corpus_tty_cpu_lines() {
    // iostat/aix-iostat-D-and-plain-EXCERPTS.txt lines 27-28 (excerpt B, AIX 7300-02 `iostat 1 2`):
    // `tty:      tin         tout    avg-cpu: % user % sys % idle % iowait`
    // `          0.0          0.0                0.9  34.6   61.5      3.0`
    // busy = 100 − 61.5 − 3.0 = 35.5 (= % user + % sys), iowait 3.0: the report with hdisk0.
    // Lines 40-41 (excerpt C, shared-processor LPAR):
    // `tty:      tin         tout    avg-cpu: % user % sys % idle % iowait physc % entc`
    // `        0.0          0.8                0.0   0.0  100.0      0.0   0.0    0.1`
    // busy = 100 − 100.0 − 0.0 = 0.0; physc 0.0, % entc 0.1: the report with hdisk11.
    // Excerpt A (`iostat -dD`) prints no CPU: its reports have none.
    let Some(l) = corpus("iostat/aix-iostat-D-and-plain-EXCERPTS.txt") else {
        return;
    };
    let b = l.reports.iter().find(|r| has_device(r, "hdisk0")).unwrap();
    let c = cpu(b);
    close(c.busy_pct, 35.5, "busy B");
    close(c.iowait_pct, 3.0, "iowait B");
    close(col(c, "% user"), 0.9, "% user B");
    close(col(c, "% sys"), 34.6, "% sys B");
    assert!(c.values.iter().all(|(n, _)| n != "tin" && n != "tout"));
    let cc = l.reports.iter().find(|r| has_device(r, "hdisk11")).unwrap();
    let c = cpu(cc);
    close(c.busy_pct, 0.0, "busy C");
    close(col(c, "physc"), 0.0, "physc C");
    close(col(c, "% entc"), 0.1, "% entc C");
    let a = l.reports.iter().find(|r| has_device(r, "hdisk6")).unwrap();
    assert!(a.cpu.is_none());
}

#[test]
fn aix_fixture_plain_t_lpar() {
    // fixtures/aix/iostat-plain-T.txt lines 4-5 and 12-13:
    // `3.1   1.9   94.2      0.8   0.04    8.1`: busy = 100 − 94.2 − 0.8 = 5.0, physc 0.04, % entc 8.1;
    // `5.0   2.5   90.0      2.5   0.07   14.0`: busy = 100 − 90.0 − 2.5 = 7.5, iowait 2.5.
    let l = log(&fixture("aix/iostat-plain-T.txt"));
    let c = cpu(&l.reports[0]);
    close(c.busy_pct, 5.0, "busy 0");
    close(col(c, "physc"), 0.04, "physc 0");
    close(col(c, "% entc"), 8.1, "% entc 0");
    let c = cpu(&l.reports[1]);
    close(c.busy_pct, 7.5, "busy 1");
    close(c.iowait_pct, 2.5, "iowait 1");
}

#[test]
fn solaris_corpus_xtc_first_row() {
    // iostat/solaris-illumos-iostat-xzn-EXCERPTS.txt lines 38-39 (excerpt E, Solaris `iostat -xtc`):
    // `device       r/s    w/s   kr/s   kw/s wait actv  svc_t  %w  %b  tin tout  us sy wt id`
    // `fd0          0.0    0.0    0.0    0.0  0.0  0.0    0.0   0   0    0    0   0  0  0 100`
    // us 0, sy 0, wt 0, id 100: busy = 100 − 100 − 0 = 0; iowait unknown (Solaris 10+ print wt
    // as 0 always and iostat prints no release: the printed 0 is kept in the values, and a
    // warning says why); fd0 keeps only its own columns.
    let Some(l) = corpus("iostat/solaris-illumos-iostat-xzn-EXCERPTS.txt") else {
        return;
    };
    let e = l.reports.iter().find(|r| has_device(r, "nfs49")).unwrap();
    let c = cpu(e);
    close(c.busy_pct, 0.0, "busy E");
    assert_eq!(c.iowait_pct, None, "wt is not measured on Solaris 10+");
    close(col(c, "wt"), 0.0, "wt E as printed");
    close(col(c, "id"), 100.0, "id E");
    assert!(
        l.warnings
            .iter()
            .any(|w| w.contains("wt is printed but not used")),
        "{:?}",
        l.warnings
    );
    assert_eq!(
        c.values.len(),
        4,
        "us sy wt id, not tin/tout: {:?}",
        c.values
    );
    let fd0 = e.devices.iter().find(|d| d.device == "fd0").unwrap();
    assert!(fd0.values.iter().all(|(n, _)| n != "id" && n != "tin"));
    // Excerpts A-D (`-xzn`, `-xne`, `-xn`) print no CPU.
    let a = l.reports.iter().find(|r| has_device(r, "c2d0")).unwrap();
    assert!(a.cpu.is_none());
}

#[test]
fn solaris_fixture_xnc_cpu_block_before_the_devices() {
    // fixtures/solaris/iostat-xnc-busy.txt lines 2-3 (`iostat -xnc 5 2`: the CPU on its own
    // lines, before the device table): ` us sy wt id` / `  3  2  0 95`: busy = 100 − 95 − 0 = 5
    // (the since-boot report); lines 8-9: ` 61 21  0 18`: busy = 100 − 18 − 0 = 82.
    let l = log(&fixture("solaris/iostat-xnc-busy.txt"));
    assert_eq!(l.reports.len(), 2);
    let c = cpu(&l.reports[0]);
    close(c.busy_pct, 5.0, "busy 0");
    assert!(l.reports[0].since_boot);
    let c = cpu(&l.reports[1]);
    close(c.busy_pct, 82.0, "busy 1");
    assert_eq!(c.iowait_pct, None, "wt 1: not measured");
    close(col(c, "us"), 61.0, "us 1");
}

#[test]
fn solaris_sar_u_cpu_with_its_wio_unmeasured() {
    // iostat/solaris-11.3-sar-A.txt line 2: `SunOS ala52s01 5.11 11.3 sun4v    05/26/2017`;
    // line 4: `08:00:00    %usr    %sys    %wio   %idle` (the UNIX `sar -u` table, no CPU
    // column); line 5: `08:20:00  0  0  0  99`: busy = 100 − 99 − 0 = 1; line 19:
    // `13:00:01  0  9  0  91`, the peak (busy 9); line 36: `Average  0  2  0  98` (a bare label).
    // SunOS 5.11 ≥ 5.10: %wio is printed as 0 always, so the IO wait is unknown.
    let Some(l) = corpus("iostat/solaris-11.3-sar-A.txt") else {
        return;
    };
    let first = cpu(&l.reports[0]);
    assert_eq!(l.reports[0].timestamp.as_deref(), Some("08:20:00"));
    close(first.busy_pct, 1.0, "busy 08:20:00");
    assert_eq!(first.iowait_pct, None);
    close(col(first, "%wio"), 0.0, "%wio as printed");
    close(col(first, "%usr"), 0.0, "%usr");
    let busy: Vec<f64> = l
        .reports
        .iter()
        .filter(|r| !r.summary)
        .filter_map(|r| r.cpu.as_ref().and_then(|c| c.busy_pct))
        .collect();
    assert_eq!(
        busy.len(),
        30,
        "every interval 08:20:00 … 18:00:00 has its CPU"
    );
    // Mean of 100 − %idle over lines 5-34 (awk): 66 / 30 = 2.2; max 9 (13:00:01, idle 91).
    close(Some(busy.iter().sum::<f64>() / 30.0), 2.2, "mean busy");
    close(busy.iter().copied().reduce(f64::max), 9.0, "max busy");
    let avg = l.reports.iter().find(|r| r.summary).unwrap();
    close(cpu(avg).busy_pct, 2.0, "Average: 100 − 98 − 0");
    assert!(
        l.warnings
            .iter()
            .any(|w| w.contains("%wio is printed but not used")),
        "{:?}",
        l.warnings
    );
}

#[test]
fn aix_sar_u_wio_is_measured() {
    // An AIX `sar -u` table (`%usr %sys %wio %idle physc %entc`): %wio is a real figure on AIX.
    // busy = 100 − 80.0 − 5.0 = 15; iowait 5.
    let text = "\nAIX host1 1 7 00F93CFF4C00    01/02/24\n\n                System configuration: lcpu=8 ent=0.40 mode=Uncapped\n\n                10:00:00    %usr    %sys    %wio   %idle   physc   %entc\n                10:00:10      10       5       5      80    0.20    50.0\n\n                Average       10       5       5      80    0.20    50.0\n\n                10:00:00     device    %busy    avque    r+w/s    Kbs/s   avwait   avserv\n                10:00:10     hdisk0       10      0.0       20      160      0.0      2.0\n\n                Average      hdisk0       10      0.0       20      160      0.0      2.0\n";
    let l = sizer_parsers::sar::parse(text).unwrap();
    let c = cpu(&l.reports[0]);
    close(c.busy_pct, 15.0, "busy");
    close(c.iowait_pct, 5.0, "%wio");
    close(col(c, "physc"), 0.2, "physc");
    assert!(
        l.warnings.iter().all(|w| !w.contains("%wio")),
        "{:?}",
        l.warnings
    );
}

#[test]
fn aix_cpu_line_that_does_not_match_its_header_is_unknown_and_warned_once() {
    // Two intervals whose tty/CPU value lines have 5 values under a header naming 2 tty and 4
    // CPU columns: the CPU is unknown (never 0) in both, one warning names the first line.
    let text = "\nSystem configuration: lcpu=2 drives=1\n\n\
                tty:      tin         tout    avg-cpu: % user % sys % idle % iowait\n\
                          0.0          0.0                1.0  2.0   97.0\n\n\
                Disks:         % tm_act     Kbps      tps    Kb_read   Kb_wrtn\n\
                hdisk0            1.0       8.0       2.0          4         4\n\n\
                tty:      tin         tout    avg-cpu: % user % sys % idle % iowait\n\
                          0.0          0.0                1.0  2.0   97.0\n\n\
                Disks:         % tm_act     Kbps      tps    Kb_read   Kb_wrtn\n\
                hdisk0            1.0       8.0       2.0          8         8\n";
    let l = sizer_parsers::unix_iostat::parse_aix(text).unwrap();
    assert_eq!(l.reports.len(), 2);
    assert!(l.reports.iter().all(|r| r.cpu.is_none()));
    let w: Vec<&String> = l
        .warnings
        .iter()
        .filter(|w| w.contains("tty/CPU header"))
        .collect();
    assert_eq!(w.len(), 1, "{:?}", l.warnings);
    assert!(w[0].starts_with("line 5: the values do not match the tty/CPU header of line 4"));
}
