//! Charts (issue 18, item 2): the engine's chart data for a database with a series, checked by
//! its points, sizing line and peak marker (not by pixels); the SVG drawn from it; and the files
//! `-o report.md` writes beside the report, linked from it.

use crate::common::{assert_exit, corpus_file, sizer, stderr};

/// RECEIPT: two hourly AIX reports of one database (snaps 173494–173496 and 173496–173498).
fn receipt() -> Option<(
    sizer::subject::database::DatabaseAnalysis,
    sizer::rules::RuleSet,
)> {
    let a = corpus_file(
        "awr",
        "sarthi2020-receipt-12.1.0.2-aix-snap173494-173496.html",
    )?;
    let b = corpus_file(
        "awr",
        "sarthi2020-receipt-12.1.0.2-aix-snap173496-173498.html",
    )?;
    let rules = sizer::rules::RuleSet::builtin().expect("built-in rules");
    let run = sizer::pipeline::run(&[a.as_path(), b.as_path()], &rules, &Default::default())
        .expect("run");
    Some((
        run.databases.into_iter().next().expect("one database"),
        rules,
    ))
}

/// The IOPS chart: required IOPS 924.86 at 09:30:36 and 1,001.80 at 10:30:50 (the reports'
/// per-second rates: 832.58 + 63.99 + 28.29 = 924.86 for the first), x 0 and 3,614 s (1 h 0 min
/// 14 s apart); the p95 line 997.953 (924.86 + 0.95 × (1001.80 − 924.86)) and the sized line
/// × 1.30 = 1,297.34; the peak marked at 10:30:50.
#[test]
fn receipt_iops_chart_has_the_series_the_sizing_line_and_the_peak() {
    let Some((d, rules)) = receipt() else { return };
    let charts = sizer::charts::database_charts(&d, rules.sizing().report_card.as_ref());
    let ids: Vec<&str> = charts.iter().map(|c| c.id).collect();
    assert_eq!(ids, ["iops", "mb_s", "latency", "cpu"]);
    let iops = &charts[0];
    assert_eq!(iops.unit, "IOPS");
    let req = &iops.series[0];
    assert_eq!(req.name, "required IOPS");
    let pts: Vec<(&str, f64, f64)> = req
        .points
        .iter()
        .map(|p| (p.time.as_str(), p.x, (p.y.unwrap() * 100.0).round() / 100.0))
        .collect();
    assert_eq!(
        pts,
        [
            ("2018-01-11T09:30:36", 0.0, 924.86),
            ("2018-01-11T10:30:50", 3614.0, 1001.80)
        ]
    );
    assert_eq!(iops.series[1].name, "read IOPS");
    assert!((iops.series[1].points[0].y.unwrap() - 832.58).abs() < 0.005);
    let lines: Vec<f64> = iops.lines.iter().map(|l| l.value).collect();
    assert!((lines[0] - 997.953).abs() < 1e-6, "{lines:?}");
    assert!((lines[1] - 997.953 * 1.3).abs() < 1e-6, "{lines:?}");
    assert!(iops.lines.iter().all(|l| l.statistic == "p95"));
    let peak = iops.peak.as_ref().expect("a peak");
    assert_eq!(peak.point.time, "2018-01-11T10:30:50");
    // Latency: the report card's small-random-read bands, best letter first.
    let lat = &charts[2];
    assert_eq!(lat.unit, "ms");
    assert_eq!(lat.bands[0].letter, "A+");
    assert!(lat.bands.windows(2).all(|w| w[0].upper_ms < w[1].upper_ms));

    // The SVG carries the legend's figures and no external reference.
    let svg = sizer::report::svg::chart_svg(iops).expect("draws");
    assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
    for text in [
        "required IOPS",
        "p95 = 997.95",
        // The legend wraps: "sized: p95 + 30 % headroom" / "= 1,297".
        "sized: p95 + 30 % headroom",
        "= 1,297",
        "peak 1,001.80 at 2018-01-11 10:30:50",
        "09:30",
    ] {
        assert!(svg.contains(text), "the SVG lacks {text:?}");
    }
    let without_ns = svg.replace("http://www.w3.org/2000/svg", "");
    assert!(!without_ns.contains("http"), "an external reference");
}

/// A single interval draws bars instead of lines: ORCL's required 6.40 IOPS, sized 6.40 × 1.3 =
/// 8.32, then what each platform's recommended layout delivers (its `iops_capability`).
#[test]
fn one_interval_gets_bars_against_the_layouts() {
    let Some(f) = corpus_file("awr", "pcambell-orcl-19c-single-noncdb.html") else {
        return;
    };
    let rules = sizer::rules::RuleSet::builtin().unwrap();
    let run = sizer::pipeline::run(&[f.as_path()], &rules, &Default::default()).unwrap();
    let d = &run.databases[0];
    let charts = sizer::charts::database_charts(d, rules.sizing().report_card.as_ref());
    assert_eq!(charts.len(), 1);
    let c = &charts[0];
    assert!(c.series.is_empty());
    use sizer::charts::BarKind;
    assert_eq!(c.bars[0].kind, BarKind::Required);
    assert!((c.bars[0].value - 6.40).abs() < 1e-9);
    assert!((c.bars[1].value - 8.32).abs() < 1e-9);
    let rec = d.recommendation.as_ref().unwrap();
    let layouts: Vec<(String, f64)> = c.bars[2..]
        .iter()
        .map(|b| match &b.kind {
            BarKind::Layout { tier_id, .. } => (tier_id.clone(), b.value),
            other => panic!("{other:?}"),
        })
        .collect();
    let want: Vec<(String, f64)> = rec
        .platforms
        .iter()
        .filter_map(|p| p.recommended.as_ref())
        .map(|o| (o.tier_id.clone(), o.iops_capability))
        .collect();
    assert_eq!(layouts, want);
    assert_eq!(layouts.len(), 4);
    let svg = sizer::report::svg::chart_svg(c).unwrap();
    assert!(svg.contains("sized (+30 % headroom)") && svg.contains("8.32"));
}

/// `-o r.md` writes `r.charts/` beside the report with one SVG per chart, each linked from the
/// report; to stdout no chart is written.
#[test]
fn output_file_gets_its_charts_beside_it() {
    let (Some(a), Some(b)) = (
        corpus_file(
            "awr",
            "sarthi2020-receipt-12.1.0.2-aix-snap173494-173496.html",
        ),
        corpus_file(
            "awr",
            "sarthi2020-receipt-12.1.0.2-aix-snap173496-173498.html",
        ),
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.md");
    let o = sizer(&[
        "analyze",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_exit(&o, 0);
    assert!(stderr(&o).contains("wrote 4 chart(s)"), "{}", stderr(&o));
    let md = std::fs::read_to_string(&out).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("r.charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "RECEIPT_DB_Id_1431238624-cpu.svg",
            "RECEIPT_DB_Id_1431238624-iops.svg",
            "RECEIPT_DB_Id_1431238624-latency.svg",
            "RECEIPT_DB_Id_1431238624-mb_s.svg"
        ]
    );
    for n in &names {
        assert!(md.contains(&format!("](r.charts/{n})")), "no link to {n}");
    }
    // No temporary file is left in the charts directory.
    assert_eq!(names.len(), 4);
    let o = sizer(&["analyze", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_exit(&o, 0);
    assert!(!crate::common::stdout(&o).contains("## Charts"));
}

/// A host's charts come from its host-total series: object3 of the pdsh capture has 200 and 400
/// IOPS at 06:48:04 and 06:48:14 (after the since-boot report), so x 0 and 10 s; the p95 is
/// 200 + 0.95 × 200 = 390 and the sized line 390 × 1.3 = 507; the peak is 400 at 06:48:14.
#[test]
fn host_chart_of_a_pdsh_capture() {
    let rules = sizer::rules::RuleSet::builtin().unwrap();
    let f = crate::common::root().join("fixtures/iostat/pdsh-x-10.2-two-hosts.txt");
    let run = sizer::pipeline::run(&[f.as_path()], &rules, &Default::default()).unwrap();
    let h = run.hosts.iter().find(|h| h.host == "object3").unwrap();
    let charts = sizer::charts::host_charts(h, rules.sizing().report_card.as_ref());
    let ids: Vec<&str> = charts.iter().map(|c| c.id).collect();
    assert_eq!(ids, ["iops", "mb_s", "latency", "cpu"]);
    let iops = &charts[0];
    let pts: Vec<(&str, f64, Option<f64>)> = iops.series[0]
        .points
        .iter()
        .map(|p| (p.time.as_str(), p.x, p.y))
        .collect();
    assert_eq!(
        pts,
        [
            ("2022-01-25T06:48:04", 0.0, Some(200.0)),
            ("2022-01-25T06:48:14", 10.0, Some(400.0))
        ]
    );
    let lines: Vec<f64> = iops.lines.iter().map(|l| l.value).collect();
    assert!(
        (lines[0] - 390.0).abs() < 1e-9 && (lines[1] - 507.0).abs() < 1e-9,
        "{lines:?}"
    );
    assert_eq!(
        iops.peak.as_ref().unwrap().point.time,
        "2022-01-25T06:48:14"
    );
    // The capture prints avg-cpu in every report, so CPU is known in both intervals.
    assert!(charts[3].series[0].points.iter().all(|p| p.y.is_some()));
}

/// The fleet chart stacks the consolidation's aligned series: fixtures/fleet/ sums 5,000, 3,000
/// and 4,000 IOPS per hour; the p95 of the sum is 4,000 + 0.9 × 1,000 = 4,900 and the members'
/// p95s added 2,900 + 2,900 = 5,800; the peak of the sum is 10:00.
#[test]
fn fleet_chart_stacks_the_aligned_members() {
    let rules = sizer::rules::RuleSet::builtin().unwrap();
    let (inputs, failures) =
        sizer::pipeline::discover(&[crate::common::root().join("fixtures/fleet")]);
    let run = sizer::pipeline::run_inputs(inputs, failures, &rules, &Default::default()).unwrap();
    let c = run
        .consolidation
        .databases
        .as_ref()
        .expect("a consolidation");
    let sums: Vec<Option<f64>> = c.aligned.iter().map(|a| a.sum).collect();
    assert_eq!(sums, [Some(5000.0), Some(3000.0), Some(4000.0)]);
    for a in &c.aligned {
        let added: f64 = a.iops.iter().map(|v| v.unwrap()).sum();
        assert_eq!(Some(added), a.sum);
    }
    let chart = sizer::charts::fleet_chart(c).expect("a chart");
    assert!(chart.stacked);
    assert_eq!(chart.series.len(), c.members.len());
    let lines: Vec<f64> = chart.lines.iter().map(|l| l.value).collect();
    assert_eq!(lines, [4900.0, 5800.0]);
    assert_eq!(
        chart.peak.as_ref().unwrap().point.time,
        "2024-05-06T10:00:00"
    );
    let svg = sizer::report::svg::chart_svg(&chart).unwrap();
    assert!(
        svg.contains("p95 = 4,900.00"),
        "the legend names the statistic"
    );
}
