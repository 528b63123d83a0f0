//! Captures whose every line carries a host prefix (`sizer_parsers::prefix`), and the iostat log
//! without its banner line, at the parser level: what reaches a sink, per host.

use std::io::Write;

use sizer_parsers::disk::DeviceLog;
use sizer_parsers::{parse_bytes, Format, ParseError, Parsed};

use crate::common::fixture;

fn hosts(bytes: &[u8]) -> (Vec<(String, DeviceLog)>, Vec<String>) {
    match parse_bytes(bytes).unwrap() {
        Parsed::Hosts { hosts, warnings } => (
            hosts.into_iter().map(|h| (h.host, h.log)).collect(),
            warnings,
        ),
        other => panic!("not a prefixed capture: {other:?}"),
    }
}

/// Σ r/s + w/s of one report's whole disks (`sd*`).
fn iops(log: &DeviceLog, report: usize) -> f64 {
    log.reports[report]
        .devices
        .iter()
        .filter(|d| d.device.starts_with("sd"))
        .map(|d| d.normalised.total_iops.unwrap())
        .sum()
}

/// The pdsh fixture: object3's and object4's lines interleaved. Each host's log is its own,
/// with its banner, its three reports and its devices; pdsh's own line is said once.
#[test]
fn pdsh_iostat_is_split_per_host() {
    let bytes = std::fs::read(fixture("iostat/pdsh-x-10.2-two-hosts.txt")).unwrap();
    let (hosts, warnings) = hosts(&bytes);
    let names: Vec<&str> = hosts.iter().map(|(h, _)| h.as_str()).collect();
    assert_eq!(names, ["object3", "object4"]);
    let (_, o3) = &hosts[0];
    assert_eq!(o3.format, "iostat_text");
    assert_eq!(o3.header.as_ref().unwrap().host, "object3");
    assert_eq!(o3.header.as_ref().unwrap().cpus, Some(8));
    assert_eq!(o3.reports.len(), 3);
    assert!(o3.reports[0].since_boot);
    assert_eq!(
        o3.reports[1].timestamp.as_deref(),
        Some("01/25/22 06:48:04")
    );
    // 06:48:04: (50 + 10) + (30 + 20) + (20 + 70) = 200; 06:48:14 doubled.
    assert_eq!((iops(o3, 1), iops(o3, 2)), (200.0, 400.0));
    let (_, o4) = &hosts[1];
    assert_eq!(
        o4.reports[1].timestamp.as_deref(),
        Some("01/25/22 06:48:05")
    );
    // 06:48:05: (500 + 100) × 2 = 1200; 06:48:15: (250 + 50) × 2 = 600.
    assert_eq!((iops(o4, 1), iops(o4, 2)), (1200.0, 600.0));
    assert_eq!(
        warnings,
        ["1 line(s) without a host prefix left out (first: line 56, 'pdsh@proxy1: object5: ssh exited with exit code 255')"]
    );
}

/// `ansible object3,object4,object5 -m shell -a 'iostat -xt 10 3'`: each host's output is one
/// block under its result header (`object4 | CHANGED | rc=0 >>`), the unreachable object5 a JSON
/// block. The same figures as the pdsh capture of the same logs; object5 is said and left out.
#[test]
fn ansible_blocks_are_split_per_host() {
    let bytes = std::fs::read(fixture("iostat/ansible-x-10.2-two-hosts.txt")).unwrap();
    let (hosts, warnings) = hosts(&bytes);
    let names: Vec<&str> = hosts.iter().map(|(h, _)| h.as_str()).collect();
    // In the order of the blocks: object4 finished first.
    assert_eq!(names, ["object4", "object3"]);
    let (_, o4) = &hosts[0];
    assert_eq!(o4.format, "iostat_text");
    assert_eq!(o4.header.as_ref().unwrap().host, "object4");
    assert_eq!(o4.reports.len(), 3);
    // 06:48:05: (500 + 100) × 2 = 1200; 06:48:15: (250 + 50) × 2 = 600.
    assert_eq!((iops(o4, 1), iops(o4, 2)), (1200.0, 600.0));
    let (_, o3) = &hosts[1];
    // 06:48:04: (50 + 10) + (30 + 20) + (20 + 70) = 200; 06:48:14 doubled.
    assert_eq!((iops(o3, 1), iops(o3, 2)), (200.0, 400.0));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("the lines of host 'object5' were left out"),
        "{warnings:?}"
    );
}

/// Ansible's header forms: `rc=N >>` after CHANGED, SUCCESS (before 2.8) or FAILED, and
/// `=> {` after a JSON result (`UNREACHABLE!`); a `key | value` table line is none.
#[test]
fn ansible_headers() {
    use sizer_parsers::prefix::ansible_header;
    for (l, host) in [
        ("db1 | CHANGED | rc=0 >>", Some("db1")),
        (
            "db1.example.com | SUCCESS | rc=0 >>\r\n",
            Some("db1.example.com"),
        ),
        ("10.0.0.7 | FAILED | rc=127 >>", Some("10.0.0.7")),
        ("db2 | UNREACHABLE! => {", Some("db2")),
        ("db2 | FAILED! => {", Some("db2")),
        ("name | value", None),
        ("db1 | changed | rc=0 >>", None),
        ("db1 | CHANGED | rc=0", None),
    ] {
        assert_eq!(
            ansible_header(l.as_bytes()).map(|h| std::str::from_utf8(h).unwrap()),
            host,
            "{l}"
        );
    }
}

/// `parallel --tag` (TAB after the tag) around `sar -d`: the same per host, read by the sar
/// parser; 10:00:20 on stor1 is sda 200 + sdb 50 = 250 tps.
#[test]
fn parallel_tag_sar_is_split_per_host() {
    let bytes = std::fs::read(fixture("sar/parallel-tag-sar-d-11.6-two-hosts.txt")).unwrap();
    let (hosts, warnings) = hosts(&bytes);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(hosts.len(), 2);
    let (name, s1) = &hosts[0];
    assert_eq!((name.as_str(), s1.format), ("stor1", "sar_text"));
    let k = s1
        .reports
        .iter()
        .position(|r| r.timestamp.as_deref() == Some("10:00:20"))
        .expect("the 10:00:20 interval");
    assert_eq!(iops(s1, k), 250.0);
}

/// A host whose lines are no report (`command not found`) is left out and said; the other host
/// is read. If no host's lines are a report, the capture is not a recognised report.
#[test]
fn a_host_without_a_report_is_left_out() {
    let good = std::fs::read_to_string(fixture("iostat/pdsh-x-10.2-two-hosts.txt")).unwrap();
    let object3: String = good
        .lines()
        .filter(|l| l.starts_with("object3: "))
        .map(|l| format!("{l}\n"))
        .collect();
    let text = format!(
        "{object3}object9: bash: iostat: command not found\nobject9: bash: iostat: command not found\n"
    );
    let (hosts, warnings) = hosts(text.as_bytes());
    assert_eq!(hosts.len(), 1);
    assert_eq!(hosts[0].1.reports.len(), 3);
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0]
            .starts_with("the lines of host 'object9' were left out: not a recognised report"),
        "{warnings:?}"
    );
    let none =
        "a: bash: iostat: command not found\nb: bash: iostat: command not found\na: x\nb: y\n";
    match parse_bytes(none.as_bytes()) {
        Err(ParseError::UnknownFormat { reason }) => {
            assert!(
                reason.contains("no host's lines are an OS disk log"),
                "{reason}"
            )
        }
        other => panic!("{other:?}"),
    }
}

/// A gzip'd capture streams through the same passes (each host's pass gunzips it again) and
/// gives the same records as the plain file.
#[test]
fn gzipped_capture_reads_as_the_plain_one() {
    let plain = std::fs::read(fixture("iostat/pdsh-x-10.2-two-hosts.txt")).unwrap();
    let dir = tempfile::Builder::new()
        .prefix("s24-prefix-gz-")
        .tempdir()
        .unwrap();
    let path = dir.path().join("pdsh.txt.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&path).unwrap(),
        flate2::Compression::default(),
    );
    gz.write_all(&plain).unwrap();
    gz.finish().unwrap();
    let mut sink = sizer_parsers::sink::Collect::new();
    let format =
        sizer_parsers::parse_path_into(&path, &sizer_parsers::ParseSettings::default(), &mut sink)
            .unwrap();
    assert_eq!(format, Format::IostatText);
    let Some(Parsed::Hosts { hosts: got, .. }) = sink.into_parsed() else {
        panic!("not a prefixed capture")
    };
    let (want, _) = hosts(&plain);
    assert_eq!(got.len(), want.len());
    for (g, (h, w)) in got.iter().zip(&want) {
        assert_eq!(&g.host, h);
        assert_eq!(g.log.reports.len(), w.reports.len());
        assert_eq!(iops(&g.log, 1), iops(w, 1));
    }
}

/// The iostat log cut from a terminal (no banner) is detected by content, has no banner, and
/// its reports are read.
#[test]
fn iostat_without_its_banner_is_detected() {
    let bytes = std::fs::read(fixture("iostat/x-10.1-no-banner-ampm.txt")).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert_eq!(sizer_parsers::detect(&text).unwrap(), Format::IostatText);
    let Parsed::Devices(log) = parse_bytes(&bytes).unwrap() else {
        panic!("not a device log")
    };
    assert!(log.header.is_none());
    assert_eq!(log.reports.len(), 4);
    assert_eq!(
        log.reports[0].timestamp.as_deref(),
        Some("01/25/2022 06:47:54 AM")
    );
    // 06:48:04: sda 100 + 50, sdb 20 + 30.
    assert_eq!(iops(&log, 1), 200.0);
}
