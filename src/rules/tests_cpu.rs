//! The host CPU rules (rules/sizing.toml): `host-cpu-bounds-workload` fires above 70 % busy,
//! `host-waits-on-io` above 20 % IO wait; neither fires at or below its threshold, and neither
//! is evaluated when its figure is unknown.

use super::*;

const ID: &str = "host-cpu-bounds-workload";

fn demand(busy: Option<f64>) -> Demand {
    Demand {
        required_iops: Some(1_353.87),
        read_iops: Some(1_140.46),
        write_iops: Some(140.59),
        read_mb_s: Some(439.19),
        write_mb_s: Some(1.08),
        host_cpu_busy_pct: busy,
        ..Demand::default()
    }
}

fn opts() -> Options {
    Options {
        headroom_pct: Some(30.0),
        ..Options::default()
    }
}

#[test]
fn fires_above_seventy_percent_busy() {
    // db1uat: 2,665,943 / (2,665,943 + 225,076) = 92.2147 % busy > 70.
    let r = recommend(
        &RuleSet::builtin().unwrap(),
        &demand(Some(92.2147)),
        &opts(),
    );
    let f = r.fired_rules.iter().find(|f| f.id == ID).expect("fired");
    assert_eq!(f.effect, Effect::Note);
    assert!(f.targets.is_empty());
}

#[test]
fn seventy_is_not_above_seventy() {
    let r = recommend(&RuleSet::builtin().unwrap(), &demand(Some(70.0)), &opts());
    assert!(r.fired_rules.iter().all(|f| f.id != ID));
    let nf = r.not_fired.iter().find(|n| n.id == ID).expect("not fired");
    assert_eq!(nf.reason.metric, Metric::HostCpuBusyPct);
    assert_eq!(nf.reason.threshold, 70.0);
    assert_eq!(nf.reason.value, 70.0);
}

#[test]
fn unknown_cpu_is_not_evaluated_never_zero() {
    let r = recommend(&RuleSet::builtin().unwrap(), &demand(None), &opts());
    assert!(r.fired_rules.iter().all(|f| f.id != ID));
    assert!(r.not_fired.iter().all(|n| n.id != ID));
    let ne = r
        .not_evaluated
        .iter()
        .find(|n| n.id == ID)
        .expect("not evaluated");
    assert_eq!(ne.unknown_metrics, vec!["host_cpu_busy_pct".to_string()]);
}

const IOWAIT: &str = "host-waits-on-io";

fn waiting(iowait: Option<f64>) -> Demand {
    Demand {
        host_cpu_busy_pct: Some(2.0),
        host_cpu_iowait_pct: iowait,
        ..demand(Some(2.0))
    }
}

#[test]
fn io_wait_above_twenty_percent_warns() {
    // fixtures/sadf/d-u-iowait.csv at 08:10:00: `%iowait` 96.00 > 20, busy 2 % (the CPU rule
    // does not fire: the host waits on its storage, not on CPU).
    let r = recommend(&RuleSet::builtin().unwrap(), &waiting(Some(96.0)), &opts());
    let f = r
        .fired_rules
        .iter()
        .find(|f| f.id == IOWAIT)
        .expect("fired");
    assert_eq!(f.effect, Effect::Warn);
    assert!(f.targets.is_empty());
    let m = f.message.to_string();
    assert!(
        m.starts_with(
            "host CPU iowait 96.00 % > 20 %: the host's CPUs sat idle with IO outstanding"
        ),
        "{m}"
    );
    assert!(f.source.starts_with("ZBX-IOWAIT"), "{}", f.source);
    assert!(r.fired_rules.iter().all(|f| f.id != ID));
}

#[test]
fn twenty_percent_io_wait_is_not_above_twenty() {
    let r = recommend(&RuleSet::builtin().unwrap(), &waiting(Some(20.0)), &opts());
    assert!(r.fired_rules.iter().all(|f| f.id != IOWAIT));
    let nf = r
        .not_fired
        .iter()
        .find(|n| n.id == IOWAIT)
        .expect("not fired");
    assert_eq!(nf.reason.metric, Metric::HostCpuIowaitPct);
    assert_eq!((nf.reason.threshold, nf.reason.value), (20.0, 20.0));
}

#[test]
fn unknown_io_wait_is_not_evaluated_never_zero() {
    let r = recommend(&RuleSet::builtin().unwrap(), &waiting(None), &opts());
    assert!(r.fired_rules.iter().all(|f| f.id != IOWAIT));
    assert!(r.not_fired.iter().all(|n| n.id != IOWAIT));
    let ne = r
        .not_evaluated
        .iter()
        .find(|n| n.id == IOWAIT)
        .expect("not evaluated");
    assert_eq!(ne.unknown_metrics, vec!["host_cpu_iowait_pct".to_string()]);
}
