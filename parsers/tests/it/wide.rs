//! Issue 14, bounded resources: a header of 100,000 columns is read in one pass. Before the fix
//! the Linux iostat plan normalised every column once per column (a 20,000-column log took more
//! than 5 minutes) and each unknown column's warning scanned the warnings so far (AIX, Solaris,
//! iostat). These tests check the values and the warnings of such headers; the work of the plan
//! is counted (not timed) in `iostat::plan::tests::a_wide_header_costs_what_a_narrow_one_does`,
//! and the timings are in `benches/columns.sh` and `docs/performance.md`.

use sizer_parsers::{iostat, unix_iostat};

const WIDE: usize = 100_000;

fn extra(prefix: &str) -> String {
    (0..WIDE)
        .map(|i| format!("{prefix}{i}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn ones(v: &str) -> String {
    vec![v; WIDE].join(" ")
}

#[test]
fn a_linux_iostat_header_of_100000_unknown_columns_is_read_and_each_is_warned_once() {
    let (x, v) = (extra("x"), ones("1.00"));
    let mut text = String::from("Linux 6.1.0 (db01) \t01/02/2024 \t_x86_64_\t(8 CPU)\n\n");
    for (r, rs) in [(0, "10.00"), (1, "200.00")] {
        text.push_str(&format!(
            "01/02/2024 10:0{r}:00 AM\nDevice r/s w/s rkB/s wkB/s {x}\nsda {rs} 50.00 800.00 1600.00 {v}\n\n"
        ));
    }
    let log = iostat::parse(&text).unwrap();
    assert_eq!(log.reports.len(), 2);
    let d = &log.reports[1].devices[0].normalised;
    // 200 r/s + 50 w/s = 250 IOPS; 800 kB/s × 1024 = 819,200 B/s.
    assert_eq!(d.total_iops, Some(250.0));
    assert_eq!(d.read_bytes_per_s, Some(819_200.0));
    // One warning per unknown column, not one per header.
    let unknown = log
        .warnings
        .iter()
        .filter(|w| w.contains("unknown column"))
        .count();
    assert_eq!(unknown, WIDE);
}

#[test]
fn an_aix_header_of_100000_unknown_columns_is_read_and_warned_once_per_header() {
    let (x, v) = (extra("x"), ones("1.0"));
    let mut text = String::from("\nSystem configuration: lcpu=8 drives=2 paths=2 vdisks=0\n\n");
    for tps in ["1.0", "16.0"] {
        text.push_str(&format!(
            "Disks: % tm_act Kbps tps Kb_read Kb_wrtn {x}\n\
             hdisk0 2.0 64.0 {tps} 1920 1920 {v}\nhdisk1 1.0 32.0 {tps} 960 960 {v}\n\n"
        ));
    }
    let log = unix_iostat::parse(&text).unwrap();
    assert_eq!(log.reports.len(), 2);
    let d = &log.reports[1].devices[0];
    assert_eq!(d.device, "hdisk0");
    // 64 Kbps × 1024 = 65,536 B/s at 16 tps.
    assert_eq!(d.normalised.total_iops, Some(16.0));
    assert_eq!(d.normalised.total_bytes_per_s, Some(65_536.0));
    let unknown = log
        .warnings
        .iter()
        .filter(|w| w.contains("unknown column"))
        .count();
    // AIX names the header's line in the warning, so each of the two headers warns once per
    // unknown column: 2 × 100,000.
    assert_eq!(unknown, 2 * WIDE);
}

#[test]
fn an_aix_report_of_20000_disks_is_one_report() {
    // A repeated disk starts the next report: found by a look-up, not a scan of the report.
    let disks = 20_000;
    let mut text = String::from("\nSystem configuration: lcpu=8 drives=2 paths=2 vdisks=0\n\n");
    for _ in 0..2 {
        text.push_str("Disks: % tm_act Kbps tps Kb_read Kb_wrtn\n");
        for d in 0..disks {
            text.push_str(&format!("hdisk{d} 2.0 64.0 16.0 1920 1920\n"));
        }
        text.push('\n');
    }
    let log = unix_iostat::parse(&text).unwrap();
    assert_eq!(log.reports.len(), 2);
    assert_eq!(log.reports[1].devices.len(), disks);
}
