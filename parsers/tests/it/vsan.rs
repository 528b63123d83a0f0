//! The vSAN parsers (`vsan_json`, `vsan_soap`, `powercli_csv`, `telegraf_vsan`) on the real
//! corpus files (`../shared/corpus/vsan/`, read in place, never copied) and on the hand-made
//! fixtures in `fixtures/vsan/` (see its README).
//!
//! Every real value below was read by hand from the cited file. Two corpus files are markdown
//! documents that embed telegraf output in a code block: their tests extract that block and parse
//! it (said at each test). The lamw README embeds PowerCLI's table view, which the `powercli_csv`
//! parser reads in place (text outside the tables is ignored).
//!
//! Corpus files of `../shared/corpus/vsan/` **without** data for these parsers:
//! - `equelin_vsanmetrics_entities.md`: the perf service's entity types and labels with their
//!   declared units — metadata, no samples (its units are the source of the module's table);
//! - `DERIVED_esxtopd_disk-columns-only.csv`: `esxtop -b` batch CSV (format `esxtop_csv`, another
//!   module);
//! - `cleeistaken_Test-Profiles_Curve_README_hcibench_results.md`: HCIBench results (format
//!   `hcibench`, another module).
//!
//! The conformance test checks that none of them is claimed by [`vsan::looks_like`].

use std::path::{Path, PathBuf};

use chrono::NaiveDateTime;
use proptest::prelude::*;
use sizer_parsers::entity::{EntityLog, Measure, Series};
use sizer_parsers::vsan;
use sizer_parsers::vsan::powercli::Options;
use sizer_parsers::{disk::DateOrder, input, ParseError};

fn shared(rel: &str) -> PathBuf {
    crate::common::shared("vsan").join(rel)
}

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/vsan")
        .join(rel)
}

/// The decoded text of a corpus file, or `None` (after printing SKIPPED) when absent.
fn corpus_text(rel: &str) -> Option<String> {
    let p = shared(rel);
    if !p.exists() {
        crate::common::corpus_absent(&p);
        return None;
    }
    let bytes = std::fs::read(&p).unwrap();
    Some(input::decode(&bytes).unwrap().text.into_owned())
}

fn fixture_text(rel: &str) -> String {
    let bytes = std::fs::read(fixture(rel)).unwrap();
    input::decode(&bytes).unwrap().text.into_owned()
}

fn fix(rel: &str) -> EntityLog {
    vsan::parse(&fixture_text(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The body of the first fenced code block after the line that contains `after`.
fn code_block(md: &str, after: &str) -> String {
    let start = md.find(after).unwrap_or_else(|| panic!("no `{after}`"));
    let rest = &md[start..];
    let open = rest.find("```").unwrap();
    let body = &rest[open..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("```").unwrap()].to_string()
}

fn t(s: &str) -> Option<NaiveDateTime> {
    Some(NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap())
}

#[track_caller]
fn series<'a>(log: &'a EntityLog, entity_type: &str, entity: &str, metric: &str) -> &'a Series {
    log.series
        .iter()
        .find(|s| s.entity_type == entity_type && s.entity == entity && s.metric == metric)
        .unwrap_or_else(|| {
            panic!(
                "no {entity_type} {entity} {metric} in {:?}",
                log.series
                    .iter()
                    .map(|s| format!("{} {} {}", s.entity_type, s.entity, s.metric))
                    .collect::<Vec<_>>()
            )
        })
}

#[track_caller]
fn close_all(got: &[Option<f64>], want: &[Option<f64>]) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        match (g, w) {
            (Some(g), Some(w)) => assert!(
                (g - w).abs() <= 1e-9 * w.abs().max(1.0),
                "{got:?} vs {want:?}"
            ),
            (None, None) => {}
            _ => panic!("{got:?} vs {want:?}"),
        }
    }
}

fn warned(log: &EntityLog, needle: &str) -> bool {
    log.warnings.iter().any(|w| w.contains(needle))
}

// ---------------------------------------------------------------------------------------------
// Real corpus files
// ---------------------------------------------------------------------------------------------

#[test]
fn otel_soap_mock_cluster_domclient() {
    // otel_vcenterreceiver_mock_cluster-vsan.xml: one returnval, cluster-domclient
    // a8c9996d-be82-4487-94fe-821dff259a6a, sampleInfo "2022-05-24 15:45:00,2022-05-24 15:46:00",
    // seven series, metricsCollectInterval 300.
    let Some(text) = corpus_text("otel_vcenterreceiver_mock_cluster-vsan.xml") else {
        return;
    };
    assert_eq!(vsan::format_of(&text), Some("vsan_soap"));
    let log = vsan::parse(&text).unwrap();
    assert_eq!(log.format, "vsan_soap");
    assert_eq!(log.series.len(), 7);
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
    let e = "a8c9996d-be82-4487-94fe-821dff259a6a";
    let r = series(&log, "cluster-domclient", e, "iopsRead");
    assert_eq!(r.measure, Some(Measure::ReadIops));
    assert_eq!(r.values, vec![Some(10.0), Some(11.0)]);
    assert_eq!(
        r.times,
        vec![t("2022-05-24 15:45:00"), t("2022-05-24 15:46:00")]
    );
    assert!(r.utc);
    assert_eq!(r.interval_s, Some(300.0));
    assert_eq!(
        series(&log, "cluster-domclient", e, "iopsWrite").values,
        vec![Some(12.0), Some(13.0)]
    );
    let tw = series(&log, "cluster-domclient", e, "throughputWrite");
    assert_eq!(tw.measure, Some(Measure::WriteBytesPerS));
    assert_eq!(tw.values, vec![Some(900.0), Some(1200.0)]);
    assert_eq!(
        series(&log, "cluster-domclient", e, "throughputRead").values,
        vec![Some(300.0), Some(600.0)]
    );
    // <values>14,15</values> µs → ms.
    let lr = series(&log, "cluster-domclient", e, "latencyAvgRead");
    assert_eq!(lr.measure, Some(Measure::ReadLatencyMs));
    assert_eq!(lr.raw_unit, "µs");
    close_all(&lr.values, &[Some(0.014), Some(0.015)]);
    close_all(
        &series(&log, "cluster-domclient", e, "latencyAvgWrite").values,
        &[Some(0.016), Some(0.017)],
    );
    let c = series(&log, "cluster-domclient", e, "congestion");
    assert_eq!(c.measure, Some(Measure::Congestion));
    assert_eq!(c.values, vec![Some(1500.0), Some(1800.0)]);
}

#[test]
fn telegraf_snake_case_sample() {
    // telegraf_vsan_sample_output_lineprotocol.md: the ```text block under "## vSAN Sample
    // Output" (extracted here) holds the snake_case generation.
    let Some(md) = corpus_text("telegraf_vsan_sample_output_lineprotocol.md") else {
        return;
    };
    assert!(
        !vsan::looks_like(&md),
        "the markdown itself is not line protocol"
    );
    let text = code_block(&md, "## vSAN Sample Output");
    assert_eq!(vsan::format_of(&text), Some("telegraf_vsan"));
    let log = vsan::parse(&text).unwrap();
    assert_eq!(log.format, "telegraf_vsan");
    assert_eq!(log.origin.as_deref(), Some("Example-VSAN"));
    assert!(log.skipped.is_empty());

    // vsphere_vsan_performance_hostdomclient,…,hostname=DC0_C0_H0,… latency_avg_write=1883,
    // iops=8, latency_avg_read=1033, throughput_read=554721, client_cache_hit_rate=0,
    // oio=4, num_oio=12623 … 1578955200000000000
    let h = series(&log, "host-domclient", "DC0_C0_H0", "latency_avg_write");
    assert_eq!(h.host.as_deref(), Some("DC0_C0_H0"));
    assert_eq!(h.measure, Some(Measure::WriteLatencyMs));
    close_all(&h.values, &[Some(1.883)]);
    assert_eq!(h.times, vec![t("2020-01-13 22:40:00")]);
    assert!(h.utc);
    let i = series(&log, "host-domclient", "DC0_C0_H0", "iops");
    assert_eq!(
        (i.measure, i.values.clone()),
        (Some(Measure::TotalIops), vec![Some(8.0)])
    );
    close_all(
        &series(&log, "host-domclient", "DC0_C0_H0", "latency_avg_read").values,
        &[Some(1.033)],
    );
    assert_eq!(
        series(&log, "host-domclient", "DC0_C0_H0", "throughput_read").values,
        vec![Some(554721.0)]
    );
    let hr = series(&log, "host-domclient", "DC0_C0_H0", "client_cache_hit_rate");
    assert_eq!(
        (hr.measure, hr.values.clone()),
        (Some(Measure::ReadCacheHitPct), vec![Some(0.0)])
    );
    let oio = series(&log, "host-domclient", "DC0_C0_H0", "oio");
    assert_eq!(
        (oio.measure, oio.values.clone()),
        (Some(Measure::OutstandingIo), vec![Some(4.0)])
    );
    // num_oio=12623 beside oio=4 is not the outstanding-IO count: kept unnormalised.
    let n = series(&log, "host-domclient", "DC0_C0_H0", "num_oio");
    assert_eq!((n.measure, n.values.clone()), (None, vec![Some(12623.0)]));
    // latency_max_write, latency_stddev, read_count… are kept, not normalised, and warned.
    let lm = series(&log, "host-domclient", "DC0_C0_H0", "latency_max_write");
    assert_eq!((lm.measure, lm.values.clone()), (None, vec![Some(8964.0)]));
    assert!(warned(&log, "latency_max_write"));

    // vsphere_vsan_performance_clusterdomcompmgr,…,uuid=XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXX,…
    // latency_avg_write=9886,…,throughput_write=50137368,…,iops_write=1272 1578954900000000000
    let u = "XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXX";
    let w = series(&log, "cluster-domcompmgr", u, "latency_avg_write");
    close_all(&w.values, &[Some(9.886)]);
    assert_eq!(w.times, vec![t("2020-01-13 22:35:00")]);
    assert_eq!(
        series(&log, "cluster-domcompmgr", u, "throughput_write").values,
        vec![Some(50137368.0)]
    );
    assert_eq!(
        series(&log, "cluster-domcompmgr", u, "iops_write").values,
        vec![Some(1272.0)]
    );
    let rr = series(&log, "cluster-domcompmgr", u, "iops_resync_read");
    assert_eq!(rr.measure, Some(Measure::ResyncReadIops));

    // vsphere_vsan_performance_clusterdomclient … latency_avg_write=1011,…,iops_read=6,
    // throughput_read=489093,latency_avg_read=1085,iops_write=43,throughput_write=435142
    let r = series(&log, "cluster-domclient", u, "iops_read");
    assert_eq!(
        (r.measure, r.values.clone()),
        (Some(Measure::ReadIops), vec![Some(6.0)])
    );
    close_all(
        &series(&log, "cluster-domclient", u, "latency_avg_read").values,
        &[Some(1.085)],
    );
    assert_eq!(
        series(&log, "cluster-domclient", u, "throughput_write").values,
        vec![Some(435142.0)]
    );

    // vsphere_vsan_summary … free_capacity_byte=11022535578757i,total_capacity_byte=14102625779712i
    // 1578955488000000000
    let cap = series(&log, "vsan-summary", "Example-VSAN", "total_capacity_byte");
    assert_eq!(cap.measure, Some(Measure::CapacityBytes));
    assert_eq!(cap.values, vec![Some(14102625779712.0)]);
    assert_eq!(cap.times, vec![t("2020-01-13 22:44:48")]);
    let free = series(&log, "vsan-summary", "Example-VSAN", "free_capacity_byte");
    assert_eq!(
        (free.measure, free.values.clone()),
        (None, vec![Some(11022535578757.0)])
    );
    assert_eq!(
        series(&log, "vsan-summary", "Example-VSAN", "overall_health").values,
        vec![Some(1.0)]
    );
}

#[test]
fn telegraf_camel_case_readme_sample() {
    // telegraf_README-VSAN_2019-07_camelCase.md: the block under "## Sample output" (extracted
    // here) holds the first, camelCase generation (hyphenated measurement names).
    let Some(md) = corpus_text("telegraf_README-VSAN_2019-07_camelCase.md") else {
        return;
    };
    assert!(!vsan::looks_like(&md));
    let text = code_block(&md, "## Sample output");
    let log = vsan::parse(&text).unwrap();
    assert_eq!(log.format, "telegraf_vsan");
    // host-domclient … hostname=DC0_C0_H0 … latencyAvgWrite=1709,…,latencyAvgRead=415,…,
    // iopsWrite=19,…,throughput=313682,… 1557336300000000000
    let h = series(&log, "host-domclient", "DC0_C0_H0", "latencyAvgWrite");
    assert_eq!(h.measure, Some(Measure::WriteLatencyMs));
    close_all(&h.values, &[Some(1.709)]);
    assert_eq!(h.times, vec![t("2019-05-08 17:25:00")]);
    close_all(
        &series(&log, "host-domclient", "DC0_C0_H0", "latencyAvgRead").values,
        &[Some(0.415)],
    );
    assert_eq!(
        series(&log, "host-domclient", "DC0_C0_H0", "iopsWrite").values,
        vec![Some(19.0)]
    );
    let tp = series(&log, "host-domclient", "DC0_C0_H0", "throughput");
    assert_eq!(
        (tp.measure, tp.values.clone()),
        (Some(Measure::TotalBytesPerS), vec![Some(313682.0)])
    );
    // cluster-domclient … iopsWrite=137,throughputWrite=6415204,latencyAvgWrite=7689,…,
    // iopsRead=13,throughputRead=442438,latencyAvgRead=543
    let u = "XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXX";
    close_all(
        &series(&log, "cluster-domclient", u, "latencyAvgWrite").values,
        &[Some(7.689)],
    );
    assert_eq!(
        series(&log, "cluster-domclient", u, "throughputWrite").values,
        vec![Some(6415204.0)]
    );
    assert_eq!(
        series(&log, "cluster-domclient", u, "iopsWrite").values,
        vec![Some(137.0)]
    );
    assert_eq!(
        series(&log, "cluster-domclient", u, "oio").values,
        vec![Some(238.0)]
    );
    // cluster-domcompmgr … latencyAvgRead=865,…,throughputRead=13116039
    close_all(
        &series(&log, "cluster-domcompmgr", u, "latencyAvgRead").values,
        &[Some(0.865)],
    );
    assert_eq!(
        series(&log, "cluster-domcompmgr", u, "throughputRead").values,
        vec![Some(13116039.0)]
    );
    // vsphere_vsan_summary … TotalCapacityB=45129177395200i,FreeCapacityB=21377606853416i
    let cap = series(&log, "vsan-summary", "Example-VSAN", "TotalCapacityB");
    assert_eq!(cap.measure, Some(Measure::CapacityBytes));
    assert_eq!(cap.values, vec![Some(45129177395200.0)]);
    assert_eq!(cap.times, vec![t("2019-05-08 17:31:03")]);
    assert!(warned(&log, "FreeCapacityB"));
}

#[test]
fn lamw_powercli_table_view() {
    // lamw_mapping-vsan-perf-stats-to-powercli-api_README.md: 13 `Get-VsanStat` outputs in the
    // default table view (Entity, Name, Time, Value), read in place.
    let Some(text) = corpus_text("lamw_mapping-vsan-perf-stats-to-powercli-api_README.md") else {
        return;
    };
    assert_eq!(vsan::format_of(&text), Some("powercli_csv"));
    let log = vsan::parse(&text).unwrap();
    assert_eq!(log.format, "powercli_csv");
    // "VSAN-Cluster  VMConsumption.ReadIops  4/21/2017 2:50:00 PM  1" … 2:55 PM 2 … 3:50 PM 1.
    let r = series(
        &log,
        "VMConsumption",
        "VSAN-Cluster",
        "VMConsumption.ReadIops",
    );
    assert_eq!(r.measure, Some(Measure::ReadIops));
    assert_eq!(r.raw_unit, "IOPS");
    assert_eq!(r.values.len(), 13);
    assert_eq!(&r.values[..3], &[Some(1.0), Some(2.0), Some(1.0)]);
    assert_eq!(r.times[0], t("2017-04-21 14:50:00"));
    assert_eq!(r.times[12], t("2017-04-21 15:50:00"));
    assert!(!r.utc);
    // Backend.ReadIops: 2, 4, 2, … (13 samples).
    let b = series(&log, "Backend", "VSAN-Cluster", "Backend.ReadIops");
    assert_eq!(&b.values[..2], &[Some(2.0), Some(4.0)]);
    // "t10.NVMe____SAMSUNG_MZ... Performance.DeviceRead... 4/21/2017 2:55:00 PM 17": the cut name
    // matches only Performance.DeviceReadIops.
    let d = series(
        &log,
        "Performance",
        "t10.NVMe____SAMSUNG_MZ...",
        "Performance.DeviceRead...",
    );
    assert_eq!(d.measure, Some(Measure::ReadIops));
    assert_eq!(d.values[1], Some(17.0));
    assert_eq!(d.times[1], t("2017-04-21 14:55:00"));
    // "vmnic0 Performance.NetworkInb... 7/3/2018 5:00:00 AM 42066" (right-aligned): the cut name
    // fits three PowerCLI names, so it is kept unnormalised and warned.
    let n = series(&log, "Performance", "vmnic0", "Performance.NetworkInb...");
    assert_eq!(n.measure, None);
    assert_eq!(n.values[2], Some(42066.0));
    assert_eq!(n.times[2], t("2018-07-03 05:00:00"));
    assert!(warned(
        &log,
        "`Performance.NetworkInb...` matches 3 PowerCLI names"
    ));
    // "192.168.1.100  HostNetwork.NetworkInb...  4/21/2017 3:15:00 PM  1290".
    assert_eq!(
        series(
            &log,
            "HostNetwork",
            "192.168.1.100",
            "HostNetwork.NetworkInb..."
        )
        .values[5],
        Some(1290.0)
    );
    // "192.168.1.100  HostIscsi.ReadIops  4/22/2017 12:00:00 PM  0" (noon).
    let hi = series(&log, "HostIscsi", "192.168.1.100", "HostIscsi.ReadIops");
    assert_eq!(hi.times.last().copied().flatten(), t("2017-04-22 12:00:00"));
    // "DeployVM  Performance.ReadIops  4/22/2017 2:00:00 AM  0".
    let vm = series(&log, "Performance", "DeployVM", "Performance.ReadIops");
    assert_eq!(vm.times[0], t("2017-04-22 02:00:00"));
    assert_eq!(vm.values, vec![Some(0.0); 6]);
    // "Hard disk 1  VirtualDisk.IopsLimit": kept, not normalised.
    let vd = series(&log, "VirtualDisk", "Hard disk 1", "VirtualDisk.IopsLimit");
    assert_eq!(vd.measure, None);
    assert!(warned(&log, "VirtualDisk.IopsLimit"));
    // The iSCSI target and LUN samples both print entity `vsan-target-1`: one series, 5 + 4 rows.
    assert_eq!(
        series(&log, "Performance", "vsan-target-1", "Performance.ReadIops")
            .values
            .len(),
        9
    );
    assert!(warned(&log, "cut short"));
}

#[test]
fn corpus_conformance() {
    // Every vSAN corpus file with data for these parsers parses (the telegraf ones through their
    // embedded block); the others are not claimed.
    for (rel, format) in [
        (
            "otel_vcenterreceiver_mock_cluster-vsan.xml",
            Some("vsan_soap"),
        ),
        (
            "lamw_mapping-vsan-perf-stats-to-powercli-api_README.md",
            Some("powercli_csv"),
        ),
        ("telegraf_vsan_sample_output_lineprotocol.md", None),
        ("telegraf_README-VSAN_2019-07_camelCase.md", None),
        ("equelin_vsanmetrics_entities.md", None),
        ("DERIVED_esxtopd_disk-columns-only.csv", None),
        (
            "cleeistaken_Test-Profiles_Curve_README_hcibench_results.md",
            None,
        ),
    ] {
        let Some(text) = corpus_text(rel) else {
            return;
        };
        assert_eq!(vsan::format_of(&text), format, "{rel}");
        match format {
            Some(f) => assert_eq!(vsan::parse(&text).unwrap().format, f),
            None => assert!(matches!(
                vsan::parse(&text),
                Err(ParseError::UnknownFormat { .. })
            )),
        }
    }
    for (rel, heading) in [
        (
            "telegraf_vsan_sample_output_lineprotocol.md",
            "## vSAN Sample Output",
        ),
        (
            "telegraf_README-VSAN_2019-07_camelCase.md",
            "## Sample output",
        ),
    ] {
        let Some(md) = corpus_text(rel) else { return };
        let log = vsan::parse_telegraf(&code_block(&md, heading)).unwrap();
        assert!(log.series.len() > 20, "{rel}");
    }
}

// ---------------------------------------------------------------------------------------------
// Fixtures: JSON
// ---------------------------------------------------------------------------------------------

#[test]
fn json_vi_api_array() {
    let text = fixture_text("query-perf-vijson.json");
    assert_eq!(vsan::format_of(&text), Some("vsan_json"));
    let log = fix("query-perf-vijson.json");
    assert_eq!(log.format, "vsan_json");
    let c = "52a3c7e1-4f0b-9d2e-8c61-0f3b5e7a9d14";
    let r = series(&log, "cluster-domclient", c, "iopsRead");
    assert_eq!(r.values, vec![Some(1200.0), Some(1350.0), Some(1100.0)]);
    assert_eq!(
        r.times,
        vec![
            t("2024-03-12 10:05:00"),
            t("2024-03-12 10:10:00"),
            t("2024-03-12 10:15:00")
        ]
    );
    assert_eq!(r.interval_s, Some(300.0));
    // "400,450,None" and "6553600,7372800," : missing samples are None, never 0.
    assert_eq!(
        series(&log, "cluster-domclient", c, "iopsWrite").values,
        vec![Some(400.0), Some(450.0), None]
    );
    assert_eq!(
        series(&log, "cluster-domclient", c, "throughputWrite").values,
        vec![Some(6553600.0), Some(7372800.0), None]
    );
    // 39321600 B/s = 1200 reads of 32 KiB.
    assert_eq!(
        series(&log, "cluster-domclient", c, "throughputRead").values[0],
        Some(39321600.0)
    );
    close_all(
        &series(&log, "cluster-domclient", c, "latencyAvgRead").values,
        &[Some(0.85), Some(0.92), Some(0.78)],
    );
    assert_eq!(
        series(&log, "cluster-domclient", c, "oio").measure,
        Some(Measure::OutstandingIo)
    );
    let dg = "52d1e0c4-77aa-4a10-b5e2-3c9d0f6a8b21";
    let hit = series(&log, "disk-group", dg, "rcHitRate");
    assert_eq!(
        (hit.measure, hit.values[0]),
        (Some(Measure::ReadCacheHitPct), Some(98.0))
    );
    assert_eq!(
        series(&log, "disk-group", dg, "capacityUsed").measure,
        Some(Measure::UsedBytes)
    );
    // Kept and warned: a label sizer does not use, an unknown entity type.
    assert_eq!(series(&log, "disk-group", dg, "wbFreePct").measure, None);
    assert!(warned(
        &log,
        "`disk-group`: 1 metric(s) kept as printed, not normalised: wbFreePct"
    ));
    let esa = series(
        &log,
        "vsan-esa-disk-layer",
        "52e6b9d3-1c2f-4e8a-a0b7-9d4c3e2f1a06",
        "iopsRead",
    );
    assert_eq!(
        (esa.measure, esa.values.clone()),
        (None, vec![Some(310.0), Some(305.0), Some(298.0)])
    );
    assert!(warned(
        &log,
        "unknown vSAN entity type `vsan-esa-disk-layer`"
    ));
    // Empty sampleInfo: a series with no times, and a warning.
    let h = series(
        &log,
        "host-domclient",
        "5f1e8a2b-3c4d-5e6f-7a8b-9c0d1e2f3a4b",
        "iopsRead",
    );
    assert!(h.values.is_empty() && h.times.is_empty());
    assert!(warned(&log, "empty sampleInfo"));
}

#[test]
fn json_powershell_pascal_case() {
    let log = fix("query-perf-powershell.json");
    let vm = "502d7c3e-8f1a-4b6c-9d2e-1f3a5b7c9e0d";
    assert_eq!(
        series(&log, "virtual-machine", vm, "iopsRead").values,
        vec![Some(250.0), Some(270.0)]
    );
    let l = series(&log, "virtual-machine", vm, "latencyRead");
    assert_eq!(l.measure, Some(Measure::ReadLatencyMs));
    close_all(&l.values, &[Some(2.1), Some(1.9)]);
    assert_eq!(l.times[1], t("2024-03-12 09:05:00"));
    assert_eq!(
        series(&log, "virtual-machine", vm, "latencyReadStddev").measure,
        None
    );
}

#[test]
fn json_length_mismatch_names_entity_and_metric() {
    let e = vsan::parse(&fixture_text("bad-length-mismatch.json"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("host-domcompmgr:5f1e8a2b-3c4d-5e6f-7a8b-9c0d1e2f3a4b"),
        "{e}"
    );
    assert!(e.contains("latencyAvgWrite"), "{e}");
    assert!(
        e.contains("expected 3 values") && e.contains("found 2 values"),
        "{e}"
    );
}

#[test]
fn json_other_shapes_and_errors() {
    // A single object, `value` as an object, `values` as an array, wrapped in `returnval`.
    let j = r#"{"returnval": {"entityRefId": "vscsi:5003|vscsi0:1", "sampleInfo": "2024-01-01 00:00:00",
        "value": {"metricId": {"label": "iopsWrite", "metricsCollectInterval": "300"}, "values": [7]}}}"#;
    let log = vsan::parse(j).unwrap();
    let s = &log.series[0];
    assert_eq!(
        (s.entity_type.as_str(), s.entity.as_str()),
        ("vscsi", "5003|vscsi0:1")
    );
    assert_eq!(
        (s.values.clone(), s.interval_s),
        (vec![Some(7.0)], Some(300.0))
    );
    // ConvertTo-Json cut at its default depth.
    let cut = r#"[{"EntityRefId":"cluster-domclient:1","SampleInfo":"2024-01-01 00:00:00",
        "Value":[{"MetricId":"VMware.Vsan.Views.VsanPerfMetricId","Values":"1"}]}]"#;
    let e = vsan::parse(cut).unwrap_err().to_string();
    assert!(e.contains("-Depth"), "{e}");
    // Not a number; invalid JSON with its line; no entity at all.
    let bad = r#"[{"entityRefId":"cluster-domclient:1","sampleInfo":"2024-01-01 00:00:00",
        "value":[{"metricId":{"label":"iopsRead"},"values":"1x"}]}]"#;
    let e = vsan::parse(bad).unwrap_err().to_string();
    assert!(e.contains("iopsRead") && e.contains("`1x`"), "{e}");
    let e = vsan::parse_json("[{\"entityRefId\": \"a:b\",\n \"value\": [}]").unwrap_err();
    assert!(e.to_string().contains("line 2"), "{e}");
    let e = vsan::parse_json("[{\"entityRefId\": \"a:b\", \"value\": []}]").unwrap_err();
    assert!(e.to_string().contains("no vSAN performance data"), "{e}");
    let e = vsan::parse_json("[{\"entityRefId\": \"nocolon\", \"value\": []}]").unwrap_err();
    assert!(e.to_string().contains("<entity type>:<id>"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Fixtures: SOAP
// ---------------------------------------------------------------------------------------------

#[test]
fn soap_dump_pages_are_joined() {
    let text = fixture_text("perf-stats-dump.txt");
    assert_eq!(vsan::format_of(&text), Some("vsan_soap"));
    let log = vsan::parse(&text).unwrap();
    let c = "52a3c7e1-4f0b-9d2e-8c61-0f3b5e7a9d14";
    let r = series(&log, "cluster-domclient", c, "iopsRead");
    assert_eq!(
        r.values,
        vec![Some(800.0), Some(820.0), Some(1200.0), Some(1250.0)]
    );
    assert_eq!(
        r.times,
        vec![
            t("2024-03-11 22:00:00"),
            t("2024-03-11 22:05:00"),
            t("2024-03-12 10:00:00"),
            t("2024-03-12 10:05:00")
        ]
    );
    assert_eq!(
        series(&log, "cluster-domclient", c, "iopsWrite").values,
        vec![Some(300.0), None, Some(410.0), Some(420.0)]
    );
    close_all(
        &series(&log, "cluster-domclient", c, "latencyAvgRead").values,
        &[Some(0.65), Some(0.7), Some(0.85), Some(0.88)],
    );
    let d = "52b0f4a1-6c3d-4e2f-8a9b-0c1d2e3f4a5b";
    let dav = series(&log, "capacity-disk", d, "latencyDevDAvg");
    assert_eq!(dav.measure, Some(Measure::DeviceLatencyMs));
    close_all(&dav.values, &[Some(0.38), Some(0.37)]);
    assert_eq!(
        series(&log, "capacity-disk", d, "iopsDevRead").measure,
        Some(Measure::ReadIops)
    );
    assert_eq!(
        series(&log, "capacity-disk", d, "ioCountDevRead").measure,
        None
    );
    assert!(warned(&log, "ioCountDevRead"));
    assert_eq!(log.series.len(), 8);
}

#[test]
fn soap_dump_cut_short_keeps_complete_entities() {
    let text = fixture_text("perf-stats-dump.txt");
    // Cut inside the capacity-disk entity of the first page (line 2).
    let at = text.find("<label>latencyDevDAvg").unwrap();
    let log = vsan::parse(&text[..at]).unwrap();
    assert_eq!(log.series.len(), 4, "the cluster entity of page 1 only");
    assert_eq!(log.skipped.len(), 1);
    assert_eq!(log.skipped[0].line, 2);
    assert!(
        log.skipped[0].reason.contains("capacity-disk:52b0f4a1"),
        "{:?}",
        log.skipped
    );
    assert!(warned(&log, "truncated"));
}

#[test]
fn soap_fault_and_text_form() {
    let fault = "<soapenv:Envelope xmlns:soapenv=\"x\"><soapenv:Body>\n<soapenv:Fault><faultcode>ServerFaultCode</faultcode>\
                 <faultstring>Invalid entityRefId</faultstring></soapenv:Fault></soapenv:Body></soapenv:Envelope>";
    let e = vsan::parse_soap(fault).unwrap_err().to_string();
    assert!(
        e.contains("SOAP fault: Invalid entityRefId") && e.contains("line 2"),
        "{e}"
    );

    let text = fixture_text("perf-stats-text.txt");
    assert_eq!(vsan::format_of(&text), Some("vsan_soap"));
    let log = vsan::parse(&text).unwrap();
    let h = "5f1e8a2b-3c4d-5e6f-7a8b-9c0d1e2f3a4b";
    let w = series(&log, "host-domcompmgr", h, "iopsWrite");
    assert_eq!(
        (w.values.clone(), w.interval_s),
        (vec![Some(510.0), Some(530.0)], Some(300.0))
    );
    assert_eq!(w.times[1], t("2024-03-12 10:10:00"));
    close_all(
        &series(&log, "host-domcompmgr", h, "latencyAvgWrite").values,
        &[Some(2.2), Some(2.05)],
    );
    let g = series(
        &log,
        "cache-disk",
        "52c9a8b7-d6e5-4f3a-b2c1-d0e9f8a7b6c5",
        "latencyDevGAvg",
    );
    assert_eq!(g.measure, Some(Measure::GuestLatencyMs));
    close_all(&g.values, &[Some(0.31), None]);
}

// ---------------------------------------------------------------------------------------------
// Fixtures: PowerCLI
// ---------------------------------------------------------------------------------------------

#[test]
fn powercli_en_us_utf8_bom() {
    let bytes = std::fs::read(fixture("get-vsanstat-en-US-utf8.csv")).unwrap();
    let d = input::decode(&bytes).unwrap();
    assert_eq!(d.encoding, "UTF-8");
    assert_eq!(vsan::format_of(&d.text), Some("powercli_csv"));
    let log = vsan::parse(&d.text).unwrap();
    let r = series(
        &log,
        "VMConsumption",
        "VSAN-Cluster",
        "VMConsumption.ReadIops",
    );
    assert_eq!(r.values, vec![Some(1200.0), Some(1350.0), None]);
    assert_eq!(r.times[2], t("2024-03-13 10:15:00"));
    assert!(!r.utc);
    let l = series(
        &log,
        "VMConsumption",
        "VSAN-Cluster",
        "VMConsumption.AverageReadLatency",
    );
    assert_eq!(
        (l.measure, l.raw_unit.as_str()),
        (Some(Measure::ReadLatencyMs), "Microseconds")
    );
    close_all(&l.values, &[Some(0.85), Some(0.92), Some(0.78)]);
    let tp = series(
        &log,
        "VMConsumption",
        "VSAN-Cluster",
        "VMConsumption.ReadThroughput",
    );
    assert_eq!(
        (tp.measure, tp.values[1]),
        (Some(Measure::ReadBytesPerS), Some(44236800.0))
    );
    let h = series(
        &log,
        "VMConsumption",
        "esx01.example.com",
        "VMConsumption.ClientCacheHitRate",
    );
    assert_eq!(
        (h.measure, h.values[0]),
        (Some(Measure::ReadCacheHitPct), Some(12.5))
    );
    let dg = "Disk group (0200000000500a07511c8e5f3b)";
    assert_eq!(
        series(&log, "Performance", dg, "Performance.ReadCacheHitRate").values,
        vec![Some(97.5)]
    );
    assert_eq!(
        series(&log, "Performance", dg, "Performance.Evictions").measure,
        None
    );
    let z = series(
        &log,
        "Performance",
        "DB-Prod-Zürich",
        "Performance.ReadLatency",
    );
    close_all(&z.values, &[Some(2.1)]);
    // KBps: 1000 or 1024? Not guessed: kept as printed, warned.
    let k = series(
        &log,
        "Performance",
        "DB-Prod-Zürich",
        "Performance.WriteThroughput",
    );
    assert_eq!(
        (k.measure, k.values.clone(), k.raw_unit.as_str()),
        (None, vec![Some(512.0)], "KBps")
    );
    assert!(warned(&log, "unit `KBps`"));
    // A name missing from the lamw table: kept, warned.
    assert_eq!(
        series(&log, "Capacity", "VSAN-Cluster", "Capacity.FreeSpace").values,
        vec![Some(8796093022208.0)]
    );
    assert!(warned(&log, "Capacity.FreeSpace"));
}

#[test]
fn powercli_de_de_utf16le_bom() {
    let bytes = std::fs::read(fixture("get-vsanstat-de-DE-utf16le.csv")).unwrap();
    assert_eq!(&bytes[..2], b"\xff\xfe");
    let d = input::decode(&bytes).unwrap();
    assert_eq!(d.encoding, "UTF-16LE");
    let log = vsan::parse(&d.text).unwrap();
    assert_eq!(log.format, "powercli_csv");
    let r = series(&log, "Backend", "VSAN-Cluster", "Backend.ReadIops");
    assert_eq!(r.values, vec![Some(1450.0), Some(1502.5)]);
    assert_eq!(
        r.times,
        vec![t("2024-03-13 10:05:00"), t("2024-03-13 10:10:00")]
    );
    close_all(
        &series(
            &log,
            "Backend",
            "VSAN-Cluster",
            "Backend.AverageWriteLatency",
        )
        .values,
        &[Some(1.8755), Some(1.92)],
    );
    assert_eq!(
        series(&log, "Backend", "VSAN-Cluster", "Backend.WriteThroughput").values[1],
        Some(21495808.0)
    );
    assert_eq!(
        series(
            &log,
            "Performance",
            "Produktion-München",
            "Performance.WriteIops"
        )
        .values,
        vec![Some(88.25), Some(91.0)]
    );
}

#[test]
fn powercli_table_transcript_en_gb() {
    let text = fixture_text("get-vsanstat-table-en-GB.txt");
    assert_eq!(vsan::format_of(&text), Some("powercli_csv"));
    let log = vsan::parse(&text).unwrap();
    let w = series(
        &log,
        "VMConsumption",
        "VSAN-Prod",
        "VMConsumption.WriteIops",
    );
    assert_eq!(w.values, vec![Some(410.0), Some(395.0), Some(12480.0)]);
    // 13/03/2024: day first for the whole file; midnight crossed.
    assert_eq!(
        w.times,
        vec![
            t("2024-03-12 23:55:00"),
            t("2024-03-13 00:00:00"),
            t("2024-03-13 00:05:00")
        ]
    );
    // `Backend.AverageWriteLa...` matches only Backend.AverageWriteLatency; no Unit column: µs.
    let l = series(&log, "Backend", "VSAN-Prod", "Backend.AverageWriteLa...");
    assert_eq!(
        (l.measure, l.raw_unit.as_str()),
        (Some(Measure::WriteLatencyMs), "µs")
    );
    close_all(&l.values, &[Some(1.45), Some(1.61), None]);
    let vm = series(&log, "Performance", "SQL Server 01", "Performance.ReadIops");
    assert_eq!(vm.values, vec![Some(733.0), Some(812.0)]);
    assert_eq!(log.series.len(), 3);
    assert!(log.skipped.is_empty());
}

#[test]
fn powercli_date_order_and_skips() {
    // Every date fits both orders and the steps are alike: month first, warned; or as told.
    let csv = "\"Entity\",\"Name\",\"Time\",\"Unit\",\"Value\"\n\
               \"C\",\"VMConsumption.ReadIops\",\"04/05/2024 10:00:00\",\"Number\",\"1\"\n\
               \"C\",\"VMConsumption.ReadIops\",\"04/05/2024 10:05:00\",\"Number\",\"2\"\n";
    let log = vsan::parse_powercli(csv).unwrap();
    assert_eq!(log.series[0].times[0], t("2024-04-05 10:00:00"));
    assert!(warned(&log, "month-first and day-first"));
    let log = vsan::parse_powercli_with(
        csv,
        Options {
            date_order: Some(DateOrder::Dmy),
        },
    )
    .unwrap();
    assert_eq!(log.series[0].times[0], t("2024-05-04 10:00:00"));
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
    // Table view: a value that is not a number is a counted skip naming the line.
    let table = "Entity   Name                    Time                  Value\n\
                 ------   ----                    ----                  -----\n\
                 C        VMConsumption.ReadIops  4/21/2017 2:50:00 PM  1\n\
                 C        VMConsumption.ReadIops  4/21/2017 2:55:00 PM  n/a\n\
                 Zürich   VMConsumption.ReadIops  4/21/2017 3:00:00 PM  3\n";
    let log = vsan::parse(table).unwrap();
    assert_eq!(log.series[0].values, vec![Some(1.0)]);
    assert_eq!(log.skipped.len(), 1);
    assert_eq!(log.skipped[0].line, 4);
    // Columns count characters, not bytes (`ü` is two bytes in UTF-8).
    let z = series(&log, "VMConsumption", "Zürich", "VMConsumption.ReadIops");
    assert_eq!(
        (z.values.clone(), z.times[0]),
        (vec![Some(3.0)], t("2017-04-21 15:00:00"))
    );
}

#[test]
fn powercli_short_row_names_the_line() {
    let e = vsan::parse(&fixture_text("bad-short-row.csv"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 3"), "{e}");
    assert!(
        e.contains("expected 5 cells (Entity,Name,Time,Unit,Value)"),
        "{e}"
    );
    assert!(e.contains("found 4 cells"), "{e}");
    let e = vsan::parse(
        "\"Entity\",\"Name\",\"Time\",\"Value\"\n\"C\",\"X.Y\",\"1/1/2024 1:00:00 AM\",\"1.2.3\"\n",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("line 2") && e.contains("Value"), "{e}");
    let e = vsan::parse("\"Entity\",\"Name\",\"Time\",\"Value\"\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("no vSAN performance data"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Fixtures: telegraf
// ---------------------------------------------------------------------------------------------

#[test]
fn telegraf_fixture() {
    let text = fixture_text("telegraf-vsan-snake_case.txt");
    assert_eq!(vsan::format_of(&text), Some("telegraf_vsan"));
    let log = vsan::parse(&text).unwrap();
    assert_eq!(log.origin.as_deref(), Some("Prod"));
    let c = "52a3c7e1-4f0b-9d2e-8c61-0f3b5e7a9d14";
    let r = series(&log, "cluster-domclient", c, "iops_read");
    assert_eq!(r.values, vec![Some(1200.0), Some(1350.0)]);
    assert_eq!(
        r.times,
        vec![t("2024-03-13 10:00:00"), t("2024-03-13 10:05:00")]
    );
    close_all(
        &series(&log, "cluster-domclient", c, "latency_avg_write").values,
        &[Some(1.45), Some(1.6)],
    );
    assert_eq!(
        series(&log, "cluster-domclient", c, "congestion").values,
        vec![Some(0.0), Some(2.0)]
    );
    let h = series(
        &log,
        "host-domclient",
        "esx01.example.com",
        "client_cache_hit_rate",
    );
    assert_eq!(
        (h.measure, h.values[0]),
        (Some(Measure::ReadCacheHitPct), Some(35.0))
    );
    let dg = series(&log, "disk-group", "naa.55cd2e404c1a7b3e", "rc_hit_rate");
    assert_eq!(
        (dg.measure, dg.host.as_deref()),
        (Some(Measure::ReadCacheHitPct), Some("esx01.example.com"))
    );
    let cd = series(
        &log,
        "cache-disk",
        "naa.55cd2e404c1a7b3e",
        "latency_dev_d_avg",
    );
    assert_eq!(cd.measure, Some(Measure::DeviceLatencyMs));
    close_all(&cd.values, &[Some(0.38)]);
    let cap = series(&log, "vsan-summary", "Prod", "total_capacity_byte");
    assert_eq!(
        (cap.measure, cap.values[0]),
        (Some(Measure::CapacityBytes), Some(14102625779712.0))
    );
    assert_eq!(cap.times[0], t("2024-03-13 10:06:29"));
    // The truncated last line is a counted skip; other measurements are counted in a warning.
    assert_eq!(log.skipped.len(), 1);
    assert_eq!(log.skipped[0].line, 11);
    assert!(warned(
        &log,
        "2 line(s) of other measurements left out (vsphere_host_cpu)"
    ));
    assert!(warned(&log, "latency_max_read"));
    let e = vsan::parse_telegraf("vsphere_host_cpu,host=a usage=1 1\n").unwrap_err();
    assert!(e.to_string().contains("no vSAN performance data"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Detection and robustness
// ---------------------------------------------------------------------------------------------

fn all_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            all_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn other_formats_are_not_claimed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut files = Vec::new();
    all_files(&root, &mut files);
    let mut checked = 0;
    for p in files {
        if p.components().any(|c| c.as_os_str() == "vsan") {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        let Ok(d) = input::decode(&bytes) else {
            continue;
        };
        assert!(
            !vsan::looks_like(&d.text),
            "{} claimed as {:?}",
            p.display(),
            vsan::format_of(&d.text)
        );
        checked += 1;
    }
    assert!(checked > 20);
}

#[test]
fn every_fixture_is_detected() {
    for (f, id) in [
        ("query-perf-vijson.json", "vsan_json"),
        ("query-perf-powershell.json", "vsan_json"),
        ("bad-length-mismatch.json", "vsan_json"),
        ("perf-stats-dump.txt", "vsan_soap"),
        ("perf-stats-text.txt", "vsan_soap"),
        ("get-vsanstat-en-US-utf8.csv", "powercli_csv"),
        ("get-vsanstat-de-DE-utf16le.csv", "powercli_csv"),
        ("get-vsanstat-table-en-GB.txt", "powercli_csv"),
        ("bad-short-row.csv", "powercli_csv"),
        ("telegraf-vsan-snake_case.txt", "telegraf_vsan"),
    ] {
        assert_eq!(vsan::format_of(&fixture_text(f)), Some(id), "{f}");
    }
}

const GOOD: &[&str] = &[
    "query-perf-vijson.json",
    "query-perf-powershell.json",
    "perf-stats-dump.txt",
    "perf-stats-text.txt",
    "get-vsanstat-en-US-utf8.csv",
    "get-vsanstat-de-DE-utf16le.csv",
    "get-vsanstat-table-en-GB.txt",
    "telegraf-vsan-snake_case.txt",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any prefix of a good fixture parses or fails with an error; never a panic, and every
    /// series keeps as many times as values.
    #[test]
    fn truncated_fixtures_never_panic(which in 0..GOOD.len(), frac in 0.0f64..1.0) {
        let text = fixture_text(GOOD[which]);
        let mut cut = (text.len() as f64 * frac) as usize;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        if let Ok(log) = vsan::parse(&text[..cut]) {
            for s in &log.series {
                prop_assert_eq!(s.values.len(), s.times.len());
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Streaming (telegraf, PowerCLI): `parse_stream` over a reader that hands over a few bytes at a
// time gives what the whole decoded text gives.
// ---------------------------------------------------------------------------------------------

/// A reader that returns at most 7 bytes per read.
struct Trickle<'a>(&'a [u8]);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(7).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// `bytes` through `parser.parse_stream`, 7 bytes per read under a 16-byte buffer.
fn streamed(
    parser: &dyn sizer_parsers::FormatParser,
    bytes: &[u8],
) -> Result<EntityLog, ParseError> {
    use sizer_parsers::{sink::Collect, Parsed};
    assert!(parser.streams(), "{}", parser.info().id);
    let mut src = std::io::BufReader::with_capacity(16, Trickle(bytes));
    let mut sink = Collect::new();
    parser.parse_stream(&mut src, &Default::default(), &mut sink)?;
    match sink.into_parsed() {
        Some(Parsed::Entities(log)) => Ok(*log),
        other => panic!("not an entity log: {other:?}"),
    }
}

/// `bytes` decoded whole and parsed (detection included).
fn whole(bytes: &[u8]) -> EntityLog {
    match sizer_parsers::parse_bytes(bytes).unwrap() {
        sizer_parsers::Parsed::Entities(log) => *log,
        other => panic!("not an entity log: {other:?}"),
    }
}

#[test]
fn telegraf_fixture_streams_in_small_reads() {
    let bytes = std::fs::read(fixture("telegraf-vsan-snake_case.txt")).unwrap();
    let log = streamed(&vsan::TelegrafVsan, &bytes).unwrap();
    let c = "52a3c7e1-4f0b-9d2e-8c61-0f3b5e7a9d14";
    let r = series(&log, "cluster-domclient", c, "iops_read");
    assert_eq!(r.values, vec![Some(1200.0), Some(1350.0)]);
    assert_eq!(
        r.times,
        vec![t("2024-03-13 10:00:00"), t("2024-03-13 10:05:00")]
    );
    close_all(
        &series(&log, "cluster-domclient", c, "latency_avg_write").values,
        &[Some(1.45), Some(1.6)],
    );
    // The truncated line keeps its line number.
    assert_eq!(log.skipped[0].line, 11);
    assert_eq!(log, whole(&bytes));
    // CRLF: the same log.
    let crlf = String::from_utf8(bytes.clone())
        .unwrap()
        .replace('\n', "\r\n");
    assert_eq!(streamed(&vsan::TelegrafVsan, crlf.as_bytes()).unwrap(), log);
    let none = streamed(&vsan::TelegrafVsan, b"vsphere_host_cpu,host=a usage=1 1\n").unwrap_err();
    assert!(
        none.to_string().contains("no vSAN performance data"),
        "{none}"
    );
}

#[test]
fn powercli_csv_fixtures_stream_in_small_reads() {
    // UTF-8 with a BOM, en-US.
    let bytes = std::fs::read(fixture("get-vsanstat-en-US-utf8.csv")).unwrap();
    let log = streamed(&vsan::PowercliCsv, &bytes).unwrap();
    let r = series(
        &log,
        "VMConsumption",
        "VSAN-Cluster",
        "VMConsumption.ReadIops",
    );
    assert_eq!(r.values, vec![Some(1200.0), Some(1350.0), None]);
    assert_eq!(r.times[2], t("2024-03-13 10:15:00"));
    let l = series(
        &log,
        "VMConsumption",
        "VSAN-Cluster",
        "VMConsumption.AverageReadLatency",
    );
    close_all(&l.values, &[Some(0.85), Some(0.92), Some(0.78)]);
    assert_eq!(log, whole(&bytes));
    // UTF-16LE (read whole by the line reader), de-DE, and the other CSV fixture.
    for f in [
        "get-vsanstat-de-DE-utf16le.csv",
        "get-vsanstat-cluster-and-host-en-US.csv",
    ] {
        let bytes = std::fs::read(fixture(f)).unwrap();
        assert_eq!(
            streamed(&vsan::PowercliCsv, &bytes).unwrap(),
            whole(&bytes),
            "{f}"
        );
    }
    // A short row: the same error, naming line 3.
    let bytes = std::fs::read(fixture("bad-short-row.csv")).unwrap();
    let e = streamed(&vsan::PowercliCsv, &bytes)
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 3"), "{e}");
    assert_eq!(
        e,
        vsan::parse(&fixture_text("bad-short-row.csv"))
            .unwrap_err()
            .to_string()
    );
}

#[test]
fn powercli_table_views_stream_in_small_reads() {
    let bytes = std::fs::read(fixture("get-vsanstat-table-en-GB.txt")).unwrap();
    let log = streamed(&vsan::PowercliCsv, &bytes).unwrap();
    let w = series(
        &log,
        "VMConsumption",
        "VSAN-Prod",
        "VMConsumption.WriteIops",
    );
    assert_eq!(w.values, vec![Some(410.0), Some(395.0), Some(12480.0)]);
    assert_eq!(w.times[1], t("2024-03-13 00:00:00"));
    let l = series(&log, "Backend", "VSAN-Prod", "Backend.AverageWriteLa...");
    close_all(&l.values, &[Some(1.45), Some(1.61), None]);
    assert_eq!(log, whole(&bytes));
    // The lamw README: 13 tables inside prose.
    let p = shared("lamw_mapping-vsan-perf-stats-to-powercli-api_README.md");
    if p.exists() {
        let bytes = std::fs::read(&p).unwrap();
        let log = streamed(&vsan::PowercliCsv, &bytes).unwrap();
        let r = series(
            &log,
            "VMConsumption",
            "VSAN-Cluster",
            "VMConsumption.ReadIops",
        );
        assert_eq!(&r.values[..3], &[Some(1.0), Some(2.0), Some(1.0)]);
        assert_eq!(r.times[12], t("2017-04-21 15:50:00"));
        assert_eq!(log, whole(&bytes));
    } else {
        crate::common::corpus_absent(&p);
    }
    // A header right under a table (no blank line between): the first table reads the second's
    // lines too, and the second's rows still come after the first's, as in the whole text.
    let table = "Entity   Name                    Time                  Value\n\
                 ------   ----                    ----                  -----\n\
                 C        VMConsumption.ReadIops  4/21/2017 2:50:00 PM  1\n\
                 Entity   Name                    Time                  Value\n\
                 ------   ----                    ----                  -----\n\
                 D        VMConsumption.ReadIops  4/21/2017 2:55:00 PM  2\n\
                 \n\
                 C        VMConsumption.ReadIops  4/21/2017 3:00:00 PM  3\n";
    let log = streamed(&vsan::PowercliCsv, table.as_bytes()).unwrap();
    assert_eq!(log, vsan::parse(table).unwrap());
    let d = series(&log, "VMConsumption", "D", "VMConsumption.ReadIops");
    assert_eq!(d.values, vec![Some(2.0), Some(2.0)]);
    // Lines 4 and 5 (the second header and its dashes) are rows of the first table.
    assert_eq!(
        log.skipped.iter().map(|s| s.line).collect::<Vec<_>>(),
        vec![4, 5]
    );
}

// ---------------------------------------------------------------------------------------------
// Streaming (`VsanJson::parse_stream`, `VsanSoap::parse_stream`): the same series from a reader
// read in small pieces.
// ---------------------------------------------------------------------------------------------

/// `bytes` streamed by `parser` in small reads, as an entity log.
fn streamed_entities(
    parser: &dyn sizer_parsers::FormatParser,
    bytes: &[u8],
) -> Result<EntityLog, ParseError> {
    match crate::sadf::stream_small_reads(parser, bytes)? {
        sizer_parsers::Parsed::Entities(log) => Ok(*log),
        other => panic!("not an entity log: {other:?}"),
    }
}

/// The entity log `parse_bytes` gives for `bytes`.
fn whole_entities(bytes: &[u8]) -> EntityLog {
    match sizer_parsers::parse_bytes(bytes) {
        Ok(sizer_parsers::Parsed::Entities(log)) => *log,
        other => panic!("not an entity log: {other:?}"),
    }
}

#[test]
fn vsan_json_streams_in_small_reads_as_parse_bytes() {
    for f in [
        "query-perf-vijson.json",
        "query-perf-powershell.json",
        "query-perf-front-back-raid5-pattern.json",
    ] {
        let bytes = std::fs::read(fixture(f)).unwrap();
        let log = streamed_entities(&vsan::VsanJson, &bytes).unwrap();
        assert_eq!(log, whole_entities(&bytes), "{f}");
        let text = String::from_utf8(bytes).unwrap();
        let u16 = crate::sadf::utf16le(&text);
        assert_eq!(
            streamed_entities(&vsan::VsanJson, &u16).unwrap(),
            log,
            "{f} in UTF-16"
        );
    }
    // Real values: query-perf-vijson.json, cluster-domclient 52a3c7e1-…, iopsRead 1200,1350,1100.
    let bytes = std::fs::read(fixture("query-perf-vijson.json")).unwrap();
    let log = streamed_entities(&vsan::VsanJson, &bytes).unwrap();
    let c = "52a3c7e1-4f0b-9d2e-8c61-0f3b5e7a9d14";
    assert_eq!(
        series(&log, "cluster-domclient", c, "iopsRead").values,
        vec![Some(1200.0), Some(1350.0), Some(1100.0)]
    );
    // Errors name the same line, streamed or whole.
    let bytes = std::fs::read(fixture("bad-length-mismatch.json")).unwrap();
    let e = streamed_entities(&vsan::VsanJson, &bytes).unwrap_err();
    assert_eq!(
        e.to_string(),
        sizer_parsers::parse_bytes(&bytes).unwrap_err().to_string()
    );
    let bad = b"[{\"entityRefId\": \"a:b\",\n \"value\": [}]";
    let e = streamed_entities(&vsan::VsanJson, bad).unwrap_err();
    assert!(e.to_string().contains("line 2"), "{e}");
}

#[test]
fn vsan_soap_streams_in_small_reads_as_parse_bytes() {
    for f in ["perf-stats-dump.txt", "perf-stats-text.txt"] {
        let bytes = std::fs::read(fixture(f)).unwrap();
        let log = streamed_entities(&vsan::VsanSoap, &bytes).unwrap();
        assert_eq!(log, whole_entities(&bytes), "{f}");
    }
    // Real values: perf-stats-dump.txt joins two pages of cluster-domclient 52a3c7e1-… iopsRead.
    let bytes = std::fs::read(fixture("perf-stats-dump.txt")).unwrap();
    let log = streamed_entities(&vsan::VsanSoap, &bytes).unwrap();
    let c = "52a3c7e1-4f0b-9d2e-8c61-0f3b5e7a9d14";
    assert_eq!(
        series(&log, "cluster-domclient", c, "iopsRead").values,
        vec![Some(800.0), Some(820.0), Some(1200.0), Some(1250.0)]
    );
    assert_eq!(log.series.len(), 8);
    // Cut inside the capacity-disk entity of the first page: the same kept entities, skip and
    // warnings, in the same order.
    let text = String::from_utf8(bytes).unwrap();
    let cut = &text[..text.find("<label>latencyDevDAvg").unwrap()];
    let log = streamed_entities(&vsan::VsanSoap, cut.as_bytes()).unwrap();
    assert_eq!(log, vsan::parse(cut).unwrap());
    assert_eq!(log.series.len(), 4);
    assert_eq!(log.skipped[0].line, 2);
    // The OpenTelemetry receiver's SOAP mock: iopsRead 10, 11.
    if let Some(xml) = corpus_text("otel_vcenterreceiver_mock_cluster-vsan.xml") {
        let log = streamed_entities(&vsan::VsanSoap, xml.as_bytes()).unwrap();
        assert_eq!(log, vsan::parse(&xml).unwrap());
        let e = "a8c9996d-be82-4487-94fe-821dff259a6a";
        assert_eq!(
            series(&log, "cluster-domclient", e, "iopsRead").values,
            vec![Some(10.0), Some(11.0)]
        );
    }
    // A closing tag that does not match names its line.
    let x = b"<obj>\n<VsanPerfEntityMetricCSV>\n<entityRefId>a:b</sampleInfo>";
    let e = streamed_entities(&vsan::VsanSoap, x).unwrap_err();
    assert!(e.to_string().contains("line 3"), "{e}");
}

#[test]
fn vsan_soap_cut_inside_the_entity_ref_still_names_the_entity() {
    // perf-stats-dump.txt cut inside the closing tag of the capacity-disk entityRefId (line 2):
    // the open entity is left out, named, streamed or whole.
    let text = fixture_text("perf-stats-dump.txt");
    let at = text.find("capacity-disk:52b0f4a1").unwrap();
    let at = at + text[at..].find("</entityRefId>").unwrap() + "</ent".len();
    let cut = &text[..at];
    let log = streamed_entities(&vsan::VsanSoap, cut.as_bytes()).unwrap();
    assert_eq!(log, vsan::parse(cut).unwrap());
    assert_eq!(log.skipped.len(), 1);
    assert_eq!(log.skipped[0].line, 2);
    assert!(
        log.skipped[0]
            .reason
            .contains("capacity-disk:52b0f4a1-6c3d-4e2f-8a9b-0c1d2e3f4a5b"),
        "{:?}",
        log.skipped
    );
    assert_eq!(log.series.len(), 4, "the cluster entity of page 1 only");
}
