//! OS logs as they come from the field (issue 16): an iostat log without its banner line, and
//! captures whose every line carries a host prefix (pdsh, parallel --tag), through `sizer
//! analyze`. Values are from the fixtures, computed by hand in the comments.

use serde_json::Value;

use crate::common::{sizer, stderr};

/// `sizer analyze -f json ARGS…`, the parsed document (exit 0 expected).
fn json(args: &[&str]) -> Value {
    let mut a = vec!["analyze", "-f", "json"];
    a.extend_from_slice(args);
    let o = sizer(&a);
    assert_eq!(o.status.code(), Some(0), "sizer {a:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("JSON")
}

fn host<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["hosts"]
        .as_array()
        .expect("hosts")
        .iter()
        .find(|h| h["host"] == name)
        .unwrap_or_else(|| panic!("no host {name} in {}", doc["hosts"]))
}

#[track_caller]
fn close(v: &Value, expected: f64) {
    let got = v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    assert!(
        (got - expected).abs() <= 1e-9,
        "expected {expected}, got {got}"
    );
}

fn warning<'a>(h: &'a Value, id: &str) -> Option<&'a str> {
    h["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["id"] == id)
        .map(|w| w["message"].as_str().unwrap())
}

const NO_BANNER: &str = "fixtures/iostat/x-10.1-no-banner-ampm.txt";

/// sysstat 10.1.5 `iostat -xkt 10` cut from a terminal: no `Linux … (host)` banner, four
/// reports at 06:47:54 – 06:48:24 AM, the first taken as since boot. Whole disks sda + sdb
/// (dm-0 is LVM on sda, not counted):
/// - 06:48:04: r/s 100 + 20 = 120, w/s 50 + 30 = 80, IOPS 200; kB/s 1600 + 800 + 320 + 480 =
///   3200 → 3200 × 1024 / 10^6 = 3.2768 MB/s;
/// - 06:48:14: every figure doubled: 400 IOPS, 6.5536 MB/s;
/// - 06:48:24: × 1.5: 300 IOPS, 4.9152 MB/s.
///
/// Average (three 10 s intervals) 300 IOPS, 4.9152 MB/s; p95 = 300 + 0.9 × (400 − 300) = 390;
/// r_await (100 × 0.50 + 20 × 1.00) / 120 = 0.58333 ms in every interval. The dates read month
/// first from the stamps alone (25 > 12); the host is named after the file, and said.
#[test]
fn iostat_without_its_banner_is_read_and_named_after_its_file() {
    let doc = json(&[NO_BANNER]);
    let h = host(&doc, &format!("(no host name) {NO_BANNER}"));
    assert_eq!(h["intervals"], 3);
    assert_eq!(h["sources"][0]["format"], "iostat_text");
    assert_eq!(h["sources"][0]["since_boot_left_out"], 1);
    assert_eq!(h["sources"][0]["date_order"], "mdy");
    assert_eq!(h["begin"], "2022-01-25T06:47:54");
    assert_eq!(h["end"], "2022-01-25T06:48:24");
    let s = &h["statistics"];
    close(&s["total_iops"]["avg"], 300.0);
    close(&s["total_iops"]["max"], 400.0);
    close(&s["total_iops"]["p95"], 390.0);
    assert_eq!(s["total_iops"]["peak_end"], "2022-01-25T06:48:14");
    close(&s["total_mb_s"]["avg"], 4.9152);
    close(&s["read_iops"]["avg"], 180.0);
    close(&s["r_await_ms"]["avg"], 70.0 / 120.0);
    assert!(warning(h, "ambiguous_date").is_none());
    let why = warning(h, "host_from_file_name").expect("the answer says where the name is from");
    assert!(why.contains("--host NAME"), "{why}");
}

/// `--host NAME` names a log that prints no host name; the figures stay those above.
#[test]
fn host_flag_names_a_log_without_a_banner() {
    let doc = json(&["--host", "db03.example.com", NO_BANNER]);
    let h = host(&doc, "db03.example.com");
    close(&h["statistics"]["total_iops"]["avg"], 300.0);
    assert!(warning(h, "host_from_option").is_some());
    assert!(warning(h, "host_from_file_name").is_none());
    // A log whose banner prints a host keeps it.
    let doc = json(&[
        "--host",
        "other",
        "fixtures/iostat/x-9.0-sectors-ampm-p.txt",
    ]);
    assert!(host(&doc, "db02.example.com")["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|w| !w["id"].as_str().unwrap().starts_with("host_from")));
}

/// Near misses stay refused: the banner-less fixture with prose before it, and a `key: value`
/// file (every line has a `word: ` prefix, but no two lines share one).
#[test]
fn near_misses_are_not_recognised() {
    let dir = tempfile::Builder::new()
        .prefix("s24-prefix-near-")
        .tempdir()
        .unwrap();
    let text = std::fs::read_to_string(NO_BANNER).unwrap();
    let prose = dir.path().join("notes.txt");
    std::fs::write(&prose, format!("What we saw on db03:\n{text}")).unwrap();
    let yaml = dir.path().join("conf.txt");
    std::fs::write(&yaml, "name: db03\nsize: 2\nkind: iostat\nmode: x\n").unwrap();
    for f in [&prose, &yaml] {
        let o = sizer(&["analyze", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        assert!(
            stderr(&o).contains("not a recognised report"),
            "{}",
            stderr(&o)
        );
    }
}
