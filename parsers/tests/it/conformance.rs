//! Conformance: every file of `../shared/corpus/sysstat-tests/tests/` (the sysstat project's own
//! expected outputs) and of `../shared/corpus/iostat/` goes through detection and parsing
//! ([`sizer_parsers::parse_file`]). The ones that hold device statistics give a device log with
//! samples; the others (CPU-only reports, version output, an empty device list, sar/sadf runs
//! without the disk activity) give an error that says so. Skipped, with a message, when the
//! corpus is absent.

use crate::common::shared;
use std::path::{Path, PathBuf};

use sizer_parsers::{parse_file, Parsed};

/// sysstat-tests files without device statistics, with what their error must say
/// (INDEX.md gives the command behind each).
const NO_DISK: [(&str, &str); 14] = [
    // `sadf … -- -m FAN,IN,TEMP`, `-m FREQ -P ALL`: power management only.
    ("expected.data-11.6.5-sadf-d", "no disk statistics"),
    ("expected.data-11.6.5-sadf-j", "no disk statistics"),
    ("expected.data-wghfreq-sadf-d", "no disk statistics"),
    ("expected.data-wghfreq-sadf-j", "no disk statistics"),
    // `iostat --getenv -V`: version output.
    ("expected.iostat-V-env", "version output"),
    // `iostat -ct`: CPU only.
    ("expected.iostat-ct", "none with a device line"),
    // `iostat -d foo`: an empty device list.
    ("expected.iostat-foo", "none with a device line"),
    // `sadf -d … -- -uw`, `-qu`, `-Iu ALL -P all,3`: CPU, paging, queue, interrupts.
    ("expected.sadf-d-T-tz", "no disk statistics"),
    ("expected.sadf-d-qu", "no disk statistics"),
    ("expected.sadf-d-t-tz", "no disk statistics"),
    ("expected.sadf-d-tz", "no disk statistics"),
    ("expected.sadf-dh", "no disk statistics"),
    // `sar -f sa20190502`: the default CPU report.
    ("expected.sar-D", "no disk statistics"),
    // `sadf -d data0-1 -- -A` of a file collected without disk activity.
    ("expected01.sadf-d", "no disk statistics"),
];

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

#[test]
fn every_sysstat_test_output_parses_or_says_why_not() {
    let dir = shared("sysstat-tests/tests");
    if !dir.exists() {
        crate::common::corpus_absent(&dir);
        return;
    }
    let mut with_devices = 0;
    for p in files(&dir) {
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if !name.starts_with("expected") {
            continue; // TLIST: upstream's list of test commands, not an output.
        }
        let r = parse_file(&p);
        match NO_DISK.iter().find(|(n, _)| *n == name) {
            Some((_, why)) => {
                let e = r
                    .err()
                    .unwrap_or_else(|| panic!("{name}: parsed, expected an error"));
                assert!(e.to_string().contains(why), "{name}: {e}");
            }
            None => match r {
                Ok(Parsed::Devices(log)) => {
                    let samples: usize = log.reports.iter().map(|r| r.devices.len()).sum();
                    assert!(samples > 0, "{name}: no device sample");
                    // Every sample has at least one figure the sizing can use.
                    assert!(
                        log.reports.iter().flat_map(|r| &r.devices).all(|d| {
                            d.normalised.total_iops.is_some() || d.normalised.read_iops.is_some()
                        }),
                        "{name}: a sample without IOPS"
                    );
                    with_devices += 1;
                }
                Ok(other) => panic!("{name}: not a device log: {other:?}"),
                Err(e) => panic!("{name}: {e}"),
            },
        }
    }
    // INDEX.md lists 112 outputs: 98 with device statistics, 14 without.
    assert_eq!(with_devices, 98);
}

#[test]
fn every_corpus_os_log_parses() {
    let dir = shared("iostat");
    if !dir.exists() {
        crate::common::corpus_absent(&dir);
        return;
    }
    let mut formats = Vec::new();
    for p in files(&dir) {
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        match parse_file(&p) {
            Ok(Parsed::Devices(log)) => {
                let samples: usize = log.reports.iter().map(|r| r.devices.len()).sum();
                assert!(samples > 0, "{name}: no device sample");
                formats.push((name, log.format));
            }
            Ok(other) => panic!("{name}: not a device log: {other:?}"),
            Err(e) => panic!("{name}: {e}"),
        }
    }
    let format_of = |n: &str| formats.iter().find(|(f, _)| f == n).map(|(_, x)| *x);
    assert_eq!(
        format_of("aix-iostat-D-and-plain-EXCERPTS.txt"),
        Some("aix_iostat")
    );
    assert_eq!(
        format_of("linux-sar-A-10.1.5-rhel7-rd_sec-devM-N.txt"),
        Some("sar_text")
    );
    assert_eq!(
        format_of("linux-sar-AMPM-and-sadf-dT-10.1.5-centos7-EXCERPT.txt"),
        Some("sadf_csv")
    );
    assert_eq!(
        format_of("nmon-linux-15h-fedora21-g-auto-DG.nmon.txt"),
        Some("nmon")
    );
    assert_eq!(format_of("solaris-11.3-sar-A.txt"), Some("sar_text"));
    assert_eq!(
        format_of("solaris-illumos-iostat-xzn-EXCERPTS.txt"),
        Some("solaris_iostat")
    );
    assert_eq!(
        format_of("linux-iostat-12.x-ubuntu2010-x-discard-flush.txt"),
        Some("iostat_text")
    );
    assert_eq!(formats.len(), 13);
}
