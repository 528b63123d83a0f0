//! Host CPU of the OS formats read since issue 13 item 8, end to end: `sizer analyze --format
//! json` on a fixture whose CPU passes a rule's threshold, and the finding in the answer.
//! Each value is hand-computed in its comment from the fixture's lines (their READMEs).

use serde_json::Value;

use crate::common::{root, sizer, stdout};

/// The JSON document of `sizer analyze --format json <fixture>` (the binary).
fn analyze_json(rel: &str) -> Value {
    let p = root().join("fixtures").join(rel);
    let o = sizer(&["analyze", "--format", "json", p.to_str().unwrap()]);
    assert!(o.status.success(), "{}", crate::common::stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("output is JSON")
}

fn rule<'a>(h: &'a Value, list: &str, id: &str) -> Option<&'a Value> {
    h["recommendation"][list]
        .as_array()
        .unwrap_or_else(|| panic!("no {list}"))
        .iter()
        .find(|r| r["id"] == id)
}

#[test]
fn solaris_cpu_above_seventy_fires_the_cpu_rule() {
    // fixtures/solaris/iostat-xnc-busy.txt: the since-boot report (line 6, 5 % busy) is left
    // out; the interval (lines 8-9 ` us sy wt id` / ` 61 21  0 18`) is 100 − 18 − 0 = 82 %
    // busy; its iowait is unknown (Solaris 10+ print wt as 0 always). One interval: the
    // demand's CPU is 82, > 70, so `host-cpu-bounds-workload` fires and `host-waits-on-io` is
    // not evaluated.
    let doc = analyze_json("solaris/iostat-xnc-busy.txt");
    let h = &doc["hosts"][0];
    assert_eq!(h["demand"]["host_cpu_busy_pct"], 82.0);
    assert_eq!(h["demand"]["host_cpu_iowait_pct"], Value::Null);
    let s = &h["statistics"]["host_cpu_busy_pct"];
    assert_eq!((s["n"].as_u64(), s["max"].as_f64()), (Some(1), Some(82.0)));
    let f = rule(h, "fired_rules", "host-cpu-bounds-workload").expect("CPU rule fired");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .starts_with("host CPU 82.00 % busy > 70 %: the host CPU, not storage, bounds"),
        "{f}"
    );
    let ne = rule(h, "not_evaluated", "host-waits-on-io").expect("iowait rule not evaluated");
    assert_eq!(ne["reason"], "host_cpu_iowait_pct unknown", "{ne}");
    // The Markdown answer states it beside the sized IO.
    let p = root().join("fixtures/solaris/iostat-xnc-busy.txt");
    let md = stdout(&sizer(&["analyze", p.to_str().unwrap()]));
    assert!(
        md.contains(
            "Host CPU in the interval closest to the sizing figure: 82.00 % busy: \
             the host CPU, not storage, bounds the workload (rule `host-cpu-bounds-workload`)."
        ),
        "{md}"
    );
}

#[test]
fn sadf_io_wait_above_twenty_warns_that_the_host_waits_on_io() {
    // fixtures/sadf/d-u-iowait.csv: `-1` rows 08:10:00 `%iowait` 96.00 `%idle` 2.00 (busy 2),
    // 08:20:00 95.00 / 2.00 (busy 3). IOPS (dev8-0 tps) 150 and 140: p95 = 140 + 0.95 × 10 =
    // 149.5, closest sample 150 at 08:10:00, whose iowait (96.00) and busy (2.00) the rules
    // test: 96 > 20 fires `host-waits-on-io` (a warning), 2 is not > 70.
    let doc = analyze_json("sadf/d-u-iowait.csv");
    let h = &doc["hosts"][0];
    assert_eq!(h["host"], "wait01.example.com");
    assert_eq!(h["demand"]["host_cpu_iowait_pct"], 96.0);
    assert_eq!(h["demand"]["host_cpu_busy_pct"], 2.0);
    let w = &h["statistics"]["host_cpu_iowait_pct"];
    // Equal 600 s intervals: average (96 + 95) / 2 = 95.5.
    assert_eq!(
        (w["avg"].as_f64(), w["max"].as_f64()),
        (Some(95.5), Some(96.0))
    );
    let f = rule(h, "fired_rules", "host-waits-on-io").expect("iowait rule fired");
    assert_eq!(f["effect"], "warn");
    let m = f["message"].as_str().unwrap();
    assert!(m.starts_with("host CPU iowait 96.00 % > 20 %"), "{m}");
    assert!(
        m.contains("the host is waiting on its storage, not on CPU"),
        "{m}"
    );
    // A warn rule is one of the host's warnings too.
    assert!(h["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["id"] == "host-waits-on-io"));
    assert!(rule(h, "fired_rules", "host-cpu-bounds-workload").is_none());
    // The Markdown answer says it.
    let p = root().join("fixtures/sadf/d-u-iowait.csv");
    let md = stdout(&sizer(&["analyze", p.to_str().unwrap()]));
    assert!(
        md.contains("`host-waits-on-io`: host CPU iowait 96.00 % > 20 %"),
        "{md}"
    );
    assert!(
        md.contains(
            "Host CPU in the interval closest to the sizing figure: 2.00 % busy, iowait 96.00 %: \
             the host is waiting on its storage, not on CPU (rule `host-waits-on-io`)."
        ),
        "{md}"
    );
}
