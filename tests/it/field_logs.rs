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

/// `pdsh -w object[3-4] iostat -xt 10 3` (sysstat 10.2.0, kernel 3.13.0), the two hosts'
/// lines interleaved, each prefixed `object3: ` or `object4: `, and pdsh's own message for a
/// third host that did not answer (line 56, no prefix). One host source and answer per host:
/// - object3, sda + sdb + sdc: 06:48:04 r/s 50 + 30 + 20 = 100, w/s 10 + 20 + 70 = 100, IOPS
///   200, kB/s 400 + 80 + 240 + 160 + 160 + 560 = 1600 → 1.6384 MB/s; 06:48:14 doubled (400,
///   3.2768): average 300 IOPS, 2.4576 MB/s; r_await (50 × 4 + 30 × 5 + 20 × 6) / 100 = 4.70
///   ms, w_await (10 × 1 + 20 × 2 + 70 × 3) / 100 = 2.60 ms;
/// - object4, sda + sdb: 06:48:05 (500 + 100) × 2 = 1200 IOPS, (4000 + 800) × 2 = 9600 kB/s →
///   9.8304 MB/s; 06:48:15 halved (600, 4.9152): average 900 IOPS, 7.3728 MB/s, max 1200.
#[test]
fn pdsh_capture_gives_one_answer_per_host() {
    let f = "fixtures/iostat/pdsh-x-10.2-two-hosts.txt";
    let doc = json(&[f]);
    let hosts: Vec<&str> = doc["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["host"].as_str().unwrap())
        .collect();
    assert_eq!(hosts, ["object3", "object4"]);
    let o3 = host(&doc, "object3");
    assert_eq!(o3["os"], "Linux 3.13.0-170-generic");
    assert_eq!(o3["intervals"], 2);
    assert_eq!(o3["sources"][0]["since_boot_left_out"], 1);
    assert_eq!(o3["devices"].as_array().unwrap().len(), 3);
    close(&o3["statistics"]["total_iops"]["avg"], 300.0);
    close(&o3["statistics"]["total_iops"]["max"], 400.0);
    close(&o3["statistics"]["total_mb_s"]["avg"], 2.4576);
    close(&o3["statistics"]["r_await_ms"]["avg"], 4.70);
    close(&o3["statistics"]["w_await_ms"]["avg"], 2.60);
    let o4 = host(&doc, "object4");
    assert_eq!(o4["devices"].as_array().unwrap().len(), 2);
    close(&o4["statistics"]["total_iops"]["avg"], 900.0);
    close(&o4["statistics"]["total_iops"]["max"], 1200.0);
    assert_eq!(
        o4["statistics"]["total_iops"]["peak_end"],
        "2022-01-25T06:48:05"
    );
    close(&o4["statistics"]["total_mb_s"]["avg"], 7.3728);
    for h in [o3, o4] {
        assert!(h["recommendation"].is_object(), "each host is sized");
        assert!(warning(h, "host_from_prefix").is_some());
        let pdsh = h["warnings"].as_array().unwrap().iter().any(|w| {
            w["message"]
                .as_str()
                .unwrap()
                .contains("line 56, 'pdsh@proxy1: object5")
        });
        assert!(pdsh, "the unprefixed line is said: {}", h["warnings"]);
    }
}

/// `parallel --tag --line-buffer ssh {} sar -d -p 10 3 ::: stor1 stor2` (sysstat 11.6):
/// `host<TAB>line`. stor1 sda + sdb tps: 100 + 50, 200 + 50, 150 + 100 = 150, 250, 250 →
/// average 216.667; kB/s 1600, 2800, 2600 → 1.6384, 2.8672, 2.6624 MB/s. stor2 counts nvme0n1
/// only (nvme0n1p1 is its partition): 1000, 3000, 2000 → average 2000, kB/s 8000, 24000, 16000
/// → average 16.384 MB/s. The `Average:` rows are not intervals.
#[test]
fn parallel_tag_sar_capture_gives_one_answer_per_host() {
    let doc = json(&["fixtures/sar/parallel-tag-sar-d-11.6-two-hosts.txt"]);
    let s1 = host(&doc, "stor1");
    assert_eq!(s1["sources"][0]["format"], "sar_text");
    assert_eq!(s1["intervals"], 3);
    assert_eq!(s1["sources"][0]["summaries_left_out"], 1);
    close(&s1["statistics"]["total_iops"]["avg"], 650.0 / 3.0);
    close(&s1["statistics"]["total_mb_s"]["max"], 2.8672);
    let s2 = host(&doc, "stor2");
    close(&s2["statistics"]["total_iops"]["avg"], 2000.0);
    close(&s2["statistics"]["total_mb_s"]["avg"], 16.384);
    assert_eq!(s2["end"], "2022-01-25T10:00:30");
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

/// Standard input is split the same way (it is read once into memory; each host's pass reads
/// the bytes held): the pdsh capture gives object3's 300 and object4's 900 IOPS on average.
#[test]
fn prefixed_capture_on_standard_input() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let bytes = std::fs::read("fixtures/iostat/pdsh-x-10.2-two-hosts.txt").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sizer"))
        .args(["analyze", "-f", "json", "-"])
        .current_dir(crate::common::root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    close(
        &host(&doc, "object3")["statistics"]["total_iops"]["avg"],
        300.0,
    );
    close(
        &host(&doc, "object4")["statistics"]["total_iops"]["avg"],
        900.0,
    );
}

/// A prefixed capture of a log without its banner (`clush -w db03 …` of a cut log) and of one
/// with a banner whose host differs from the prefix: each host is its prefix; the banner-less
/// one gives the figures of the plain fixture (300 IOPS on average), and the other's answer
/// names the banner's host.
#[test]
fn prefix_names_the_host_of_a_banner_less_log() {
    let dir = tempfile::Builder::new()
        .prefix("s24-prefix-clush-")
        .tempdir()
        .unwrap();
    let prefixed = |host: &str, file: &str| -> String {
        std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .map(|l| format!("{host}: {l}\n"))
            .collect()
    };
    let f = dir.path().join("clush.txt");
    std::fs::write(
        &f,
        prefixed("db03", NO_BANNER) + &prefixed("db02", "fixtures/iostat/x-9.0-sectors-ampm-p.txt"),
    )
    .unwrap();
    let doc = json(&[f.to_str().unwrap()]);
    let db03 = host(&doc, "db03");
    close(&db03["statistics"]["total_iops"]["avg"], 300.0);
    let why = warning(db03, "host_from_prefix").unwrap();
    assert!(!why.contains("banner prints"), "{why}");
    assert!(warning(db03, "host_from_file_name").is_none());
    let db02 = host(&doc, "db02");
    let why = warning(db02, "host_from_prefix").unwrap();
    assert!(
        why.contains("its banner prints the host name `db02.example.com`"),
        "{why}"
    );
}
