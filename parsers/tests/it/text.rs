//! The AWR text parser (`sizer_parsers::awr::text`) on the hand-made text fixtures in
//! `fixtures/awr/text/` (see `fixtures/README.md`) and on the real 12.2 text report of the shared
//! corpus (`../shared/corpus/awr`, skipped when absent).
//!
//! Equivalence: every text fixture has an HTML twin with the same data (`fixtures/awr/*.html` for
//! 19c and 11.2.0.3, `fixtures/awr/text/*.html` for 11.2.0.4, 12.1 and the 19c RAC global report);
//! `equivalent` compares the records of both, field by field, through
//! `sizer_parsers::parse_file`. The instance text reports print the Instance Activity Stats
//! `per Second` / `per Trans` and the IOStat `Reqs per sec` with 1 decimal where the HTML report
//! prints 2: both are Oracle's roundings of the same rate, so they may differ by at most half a
//! unit of each precision (0.05 + 0.005); that is the comparison used for those columns. The RAC
//! global text prints 2 decimals, like its HTML twin, and is compared exactly. Every other
//! field (header, snapshots, Totals, Load Profile, IO Profile, efficiency, wait events, IOStat
//! data and times) is printed alike in both and compared exactly.

use crate::common::awr_corpus as corpus;
use crate::common::*;

use std::path::Path;

use sizer_parsers::awr::{AwrReport, ReportKind, WaitScope};
use sizer_parsers::{detect, parse_file, Format, ParseError, Parsed};

fn text_of(rel: &str) -> String {
    String::from_utf8(std::fs::read(fixture(rel)).unwrap()).unwrap()
}

/// Both values are Oracle's roundings of one rate, to `tol` = half a unit of each precision.
#[track_caller]
fn same_rate(html: Option<f64>, text: Option<f64>, tol: f64, what: &str) {
    match (html, text) {
        (Some(h), Some(t)) => assert!(
            (h - t).abs() <= tol + 1e-9,
            "{what}: HTML {h}, text {t} (allowed difference {tol})"
        ),
        (h, t) => assert_eq!(h, t, "{what}"),
    }
}

/// Half a unit of 1 decimal plus half a unit of 2 decimals.
const ONE_VS_TWO: f64 = 0.05 + 0.005;

/// Compares the records of an HTML report and of its text twin (see the module doc).
/// `rate_tol` is the allowed difference for the activity and IOStat request rates.
fn equivalent(html_rel: &str, text_rel: &str, rate_tol: f64) {
    let h = awr(html_rel);
    let t = awr(text_rel);
    assert!(h.warnings.is_empty(), "{html_rel}: {:?}", h.warnings);
    assert!(t.warnings.is_empty(), "{text_rel}: {:?}", t.warnings);
    assert_eq!(t.kind, h.kind);
    assert_eq!(t.heading, h.heading);
    assert_eq!(
        t.title, h.title,
        "the text title is composed like the HTML <title>"
    );
    assert_eq!(format!("{:?}", t.db), format!("{:?}", h.db), "database");
    assert_eq!(
        format!("{:?}", t.instances),
        format!("{:?}", h.instances),
        "instances"
    );
    assert_eq!(
        format!("{:?}", t.snapshots),
        format!("{:?}", h.snapshots),
        "snapshots"
    );
    assert_eq!(
        format!("{:?}", t.load_profile),
        format!("{:?}", h.load_profile),
        "Load Profile"
    );
    assert_eq!(
        format!("{:?}", t.io_profile),
        format!("{:?}", h.io_profile),
        "IO Profile (read_write_printed included)"
    );
    assert_eq!(t.efficiency, h.efficiency, "efficiency");

    // Every statistic, in the same order, from the same table.
    let names = |r: &AwrReport| {
        r.activity
            .iter()
            .map(|s| s.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&t), names(&h), "activity statistic names");
    for (a, b) in h.activity.iter().zip(&t.activity) {
        let n = &a.name;
        assert_eq!(b.table, a.table, "{n}: table");
        assert_eq!(b.total, a.total, "{n}: Total");
        same_rate(
            a.per_second,
            b.per_second,
            rate_tol,
            &format!("{n} per Second"),
        );
        same_rate(
            a.per_trans,
            b.per_trans,
            rate_tol,
            &format!("{n} per Trans"),
        );
    }

    // Wait events: same events, waits, times and averages (printed alike in both).
    assert_eq!(
        format!("{:?}", t.wait_events),
        format!("{:?}", h.wait_events),
        "wait events"
    );

    // Wait Event Histograms: percentages and edges are printed alike in both.
    assert_eq!(t.wait_histograms, h.wait_histograms, "wait histograms");

    for (hs, ts, what) in [
        (&h.iostat_function, &t.iostat_function, "IOStat by Function"),
        (&h.iostat_filetype, &t.iostat_filetype, "IOStat by Filetype"),
    ] {
        assert_eq!(ts.len(), hs.len(), "{what}: rows");
        for (a, b) in hs.iter().zip(ts.iter()) {
            let n = format!("{what} {:?} {}", a.instance, a.name);
            assert_eq!((&b.instance, &b.name), (&a.instance, &a.name), "{n}");
            same_rate(a.read_reqs_per_s, b.read_reqs_per_s, rate_tol, &n);
            same_rate(a.write_reqs_per_s, b.write_reqs_per_s, rate_tol, &n);
            assert_eq!(b.read_bytes_per_s, a.read_bytes_per_s, "{n}: read data");
            assert_eq!(b.write_bytes_per_s, a.write_bytes_per_s, "{n}: write data");
            assert_eq!(b.waits, a.waits, "{n}: waits");
            assert_eq!(b.avg_wait_ms, a.avg_wait_ms, "{n}: avg");
            assert_eq!(b.small_read_ms, a.small_read_ms, "{n}: small read");
            assert_eq!(b.large_read_ms, a.large_read_ms, "{n}: large read");
        }
    }
}

#[test]
fn text_19c_equals_the_19c_html_fixture() {
    equivalent(
        "awr/awrrpt_19c_small.html",
        "awr/text/awrrpt_19c_small.txt",
        ONE_VS_TWO,
    );
}

#[test]
fn text_11203_spool_equals_the_11203_html_fixture() {
    equivalent(
        "awr/awrrpt_11203_small.html",
        "awr/text/awrrpt_11203_small.txt",
        ONE_VS_TWO,
    );
}

#[test]
fn text_11204_equals_its_html_twin() {
    equivalent(
        "awr/text/awrrpt_11204_small.html",
        "awr/text/awrrpt_11204_small.txt",
        ONE_VS_TWO,
    );
}

#[test]
fn text_121_equals_its_html_twin() {
    equivalent(
        "awr/text/awrrpt_121_small.html",
        "awr/text/awrrpt_121_small.txt",
        ONE_VS_TWO,
    );
}

#[test]
fn rac_global_text_equals_its_html_twin_exactly() {
    // Both print the cluster-wide rates with 2 decimals: no tolerance.
    equivalent(
        "awr/text/awrgrpt_19c_small.html",
        "awr/text/awrgrpt_19c_small.txt",
        0.0,
    );
}

#[test]
fn text_fixtures_are_detected_by_content() {
    for (rel, want) in [
        ("awr/text/awrrpt_19c_small.txt", Format::AwrText),
        ("awr/text/awrrpt_11203_small.txt", Format::AwrText),
        ("awr/text/awrrpt_11204_small.txt", Format::AwrText),
        ("awr/text/awrrpt_121_small.txt", Format::AwrText),
        ("awr/text/awrgrpt_19c_small.txt", Format::AwrText),
        ("awr/text/spreport_10g_small.txt", Format::Statspack),
        ("awr/text/awrrpt_121_small.html", Format::AwrHtml),
        ("awr/text/awrgrpt_19c_small.html", Format::AwrHtml),
        ("awr/awrrpt_19c_small.html", Format::AwrHtml),
    ] {
        let bytes = std::fs::read(fixture(rel)).unwrap();
        let d = sizer_parsers::input::decode(&bytes).unwrap();
        assert_eq!(detect(&d.text).unwrap(), want, "{rel}");
    }
    assert_eq!(Format::AwrText.name(), "AWR text report");
    assert_eq!(Format::Statspack.name(), "Statspack report");
}

#[test]
fn html_quoted_in_the_sql_text_of_a_text_report_does_not_make_it_html() {
    let t = text_of("awr/text/awrrpt_19c_small.txt");
    let i = t.find("End of Report").unwrap();
    let t = format!(
        "{}select '<html><table>' || x from t  WORKLOAD REPOSITORY\n\n{}",
        &t[..i],
        &t[i..]
    );
    assert_eq!(detect(&t).unwrap(), Format::AwrText);
    assert!(parse_str(&t).is_ok());
}

#[test]
fn text_19c_hand_figures() {
    let r = awr("awr/text/awrrpt_19c_small.txt");
    assert_eq!(r.kind, ReportKind::Instance);
    assert_eq!(r.encoding, "UTF-8");
    // Fixture comment: 8,640,432 / 3,600 = 2,400.12 -> printed 2,400.1.
    let s = |n: &str| {
        r.activity(n)
            .unwrap_or_else(|| panic!("{n} missing"))
            .clone()
    };
    let rd = s("physical read total IO requests");
    close(rd.total, 8_640_432.0, "read total");
    close(rd.per_second, 2_400.1, "read per Second (1 decimal)");
    close(rd.per_trans, 48.0, "read per Trans");
    close(
        s("physical write total IO requests").per_second,
        600.1,
        "write",
    );
    close(s("redo writes").per_second, 150.0, "redo writes");
    // Cut to 32 characters in the text, restored from Oracle's names.
    close(
        s("physical read total multi block requests").total,
        86_400.0,
        "cut name restored",
    );
    // Wrapped onto the next line, joined.
    close(
        s("physical write total multi block requests").total,
        21_600.0,
        "wrapped name joined",
    );
    assert_eq!(
        s("session logical reads").table,
        "Key Instance Activity Stats"
    );
    assert_eq!(
        s("physical reads cache").table,
        "Instance Activity Stats",
        "after the page break"
    );
    assert_eq!(r.efficiency("Buffer Hit %"), Some(93.50));
    let io = r
        .io_profile
        .iter()
        .find(|x| x.name == "Total Requests")
        .unwrap();
    assert_eq!(io.read_write_printed, "3,000.2");
    let w = r
        .wait_events
        .iter()
        .find(|w| w.scope == WaitScope::Background && w.event == "control file parallel write")
        .expect("'control file parallel writ' restored");
    assert_eq!(w.avg_wait_printed, "802.11us");
    assert!(r
        .wait_events
        .iter()
        .any(|w| w.event == "SQL*Net message from client"));
    assert!(
        r.wait_events.iter().all(|w| w.event != "DB CPU"),
        "not the Top 10 table"
    );
    let bc = r
        .iostat_function
        .iter()
        .find(|x| x.name == "Buffer Cache Reads")
        .expect("'Buffer Cache Re' restored");
    close(
        bc.read_reqs_per_s,
        2_370.1,
        "Buffer Cache Reads Reqs per sec",
    );
    close(bc.avg_wait_ms, 1.29, "Buffer Cache Reads Avg Time");
}

#[test]
fn fixture_19c_text_has_the_page_quirks() {
    let t = text_of("awr/text/awrrpt_19c_small.txt");
    assert!(
        t.lines().filter(|l| *l == "\x0c").count() >= 5,
        "form feeds"
    );
    assert_eq!(
        t.lines()
            .filter(|l| l.starts_with("Instance Activity Stats   "))
            .count(),
        2,
        "the full table is split over two pages with its title repeated"
    );
    assert!(t.contains("\nphysical read total multi block "));
    assert!(t.contains("\nphysical write total multi block "));
    assert!(t.contains("\nrequests\n"), "a wrapped name");
    assert!(t.contains("\ncontrol file parallel writ "));
    assert!(t.contains("\nBuffer Cache Re "));
    assert!(!t.contains('\r'));
}

#[test]
fn text_11203_spool_quirks_and_figures() {
    let bytes = std::fs::read(fixture("awr/text/awrrpt_11203_small.txt")).unwrap();
    let lf = bytes.iter().filter(|&&b| b == b'\n').count();
    let crlf = bytes.windows(2).filter(|w| w == b"\r\n").count();
    assert_eq!(lf, crlf, "every line ends with CRLF");
    let t = String::from_utf8(bytes).unwrap();
    assert!(
        t.matches("\r\nOUTPUT\r\n---").count() >= 5,
        "OUTPUT headings"
    );
    assert!(t.contains("SQL> spool off"));
    assert!(t.contains(" rows selected."));
    // An OUTPUT heading between a table's column header and its underline, and one between two
    // rows of the Instance Activity Stats.
    let lines: Vec<&str> = t.split("\r\n").map(|l| l.trim_end()).collect();
    let heads: Vec<usize> = (0..lines.len()).filter(|&i| lines[i] == "OUTPUT").collect();
    assert!(heads
        .iter()
        .any(|&i| { lines[i + 2].starts_with("----") && lines[i - 2].starts_with("Statistic ") }));
    assert!(heads.iter().any(|&i| {
        lines[i - 2].starts_with("physical") && lines[i + 2].starts_with("physical")
    }));

    let r = awr("awr/text/awrrpt_11203_small.txt");
    assert!(r.io_profile.is_empty(), "11.2.0.3 has no IO Profile");
    assert!(r
        .activity
        .iter()
        .all(|s| s.table == "Instance Activity Stats"));
    close(
        r.activity("physical read total IO requests")
            .unwrap()
            .per_second,
        1_200.3,
        "read",
    );
    assert_eq!(r.efficiency("Buffer Hit %"), Some(96.50));
    let seq = r
        .wait_events
        .iter()
        .find(|w| w.event == "db file sequential read")
        .unwrap();
    assert_eq!(seq.avg_wait_printed, "4");
    close(seq.avg_wait_ms, 4.0, "integer ms");
    let bc = r
        .iostat_function
        .iter()
        .find(|x| x.name == "Buffer Cache Reads")
        .unwrap();
    close(
        bc.read_bytes_per_s,
        29.3961 * 1_048_576.0,
        "bare MiB Data per sec",
    );
}

#[test]
fn text_121_e_notation_wrapped_name_and_blank_sockets() {
    let r = awr("awr/text/awrrpt_121_small.txt");
    assert_eq!(r.db.cdb, Some(true));
    assert_eq!(r.instances[0].sockets, None, "blank Sockets is unknown");
    close(
        r.activity("session uga memory max").unwrap().total,
        129_899_307_300.0,
        "1.298993073E+11",
    );
    close(
        r.activity("physical read total multi block requests")
            .unwrap()
            .total,
        54_000.0,
        "wrapped",
    );
    assert!(text_of("awr/text/awrrpt_121_small.txt").contains(" 1.298993073E+11 "));
}

#[test]
fn text_11204_key_and_other_activity_tables() {
    let r = awr("awr/text/awrrpt_11204_small.txt");
    assert_eq!(
        r.activity("user commits").unwrap().table,
        "Key Instance Activity Stats"
    );
    assert_eq!(
        r.activity("redo writes").unwrap().table,
        "Other Instance Activity Stats"
    );
    close(
        r.activity("physical write total IO requests")
            .unwrap()
            .per_second,
        300.1,
        "300.05 printed with 1 decimal",
    );
    assert_eq!(r.efficiency("Buffer Hit %"), Some(96.00));
    assert_eq!(r.io_profile.len(), 11);
}

#[test]
fn rac_global_text_gives_the_cluster_wide_figures() {
    let r = awr("awr/text/awrgrpt_19c_small.txt");
    assert_eq!(r.kind, ReportKind::RacGlobal);
    assert_eq!(r.heading, "WORKLOAD REPOSITORY REPORT (RAC)");
    assert_eq!(r.db.db_name, "SIZRAC");
    assert_eq!(r.db.rac, Some(true));
    assert_eq!(r.instances.len(), 2);
    assert_eq!(r.instances[1].name, "sizrac2");
    assert_eq!(r.instances[1].host.as_deref(), Some("db06.example.com"));
    close(r.instances[0].memory_gb, 128.0, "MB / 1024");
    assert_eq!((r.snapshots.begin_id, r.snapshots.end_id), (300, 301));
    close(r.snapshots.db_time_min, 480.0, "DB time");
    let s = |n: &str| r.activity(n).unwrap().clone();
    // System Statistics (Global): cluster-wide per Second (fixture comment).
    close(
        s("physical read total IO requests").per_second,
        3_600.20,
        "read",
    );
    close(
        s("physical write total IO requests").per_second,
        1_200.10,
        "write",
    );
    close(s("redo writes").per_second, 300.02, "redo writes");
    assert_eq!(
        s("physical write total multi block requests").table,
        "System Statistics (Global)"
    );
    assert_eq!(
        r.efficiency,
        vec![],
        "no Buffer Hit % in RAC global reports"
    );
    let tot = r
        .io_profile
        .iter()
        .find(|x| x.name == "Total Requests")
        .unwrap();
    assert_eq!(tot.read_write_printed, "4,800.30");
    let per_inst: Vec<(Option<&str>, Option<f64>)> = r
        .iostat_filetype
        .iter()
        .filter(|x| x.name == "Total")
        .map(|x| (x.instance.as_deref(), x.read_reqs_per_s))
        .collect();
    assert_eq!(
        per_inst,
        vec![
            (Some("*"), Some(3_600.20)),
            (Some("1"), Some(2_160.12)),
            (Some("2"), Some(1_440.08))
        ]
    );
    let lfpw = r
        .wait_events
        .iter()
        .find(|w| w.scope == WaitScope::Background && w.event == "log file parallel write")
        .unwrap();
    close(lfpw.avg_wait_ms, 0.38, "380.00us");
    assert_eq!(lfpw.wait_class.as_deref(), Some("System I/O"));
}

/// The 19c text fixture cut after the line that starts with `prefix` (the `n`-th such line).
fn cut_after(prefix: &str, n: usize) -> (String, usize) {
    let t = text_of("awr/text/awrrpt_19c_small.txt");
    let lines: Vec<&str> = t.lines().collect();
    let at = (0..lines.len())
        .filter(|&i| lines[i].starts_with(prefix))
        .nth(n)
        .unwrap_or_else(|| panic!("no line '{prefix}'"));
    (lines[..=at].join("\n") + "\n", at)
}

#[test]
fn text_cut_in_the_middle_of_instance_activity_stats_is_truncated_there() {
    // Cut after `physical reads cache`, on the second page of Instance Activity Stats.
    let (cut, at) = cut_after("physical reads cache", 0);
    let lines: Vec<&str> = cut.lines().collect();
    let title_line = (0..=at)
        .rev()
        .find(|&i| lines[i].starts_with("Instance Activity Stats "))
        .unwrap()
        + 1;
    let e = parse_str(&cut).unwrap_err();
    match &e {
        ParseError::Truncated { what, at } => {
            assert_eq!(at.section.as_deref(), Some("Instance Activity Stats"));
            assert_eq!(at.line, Some(title_line), "the page title of the cut page");
            assert!(what.contains("End of Report"), "{what}");
        }
        other => panic!("expected Truncated, got {other:?}"),
    }
    let msg = e.to_string();
    assert!(msg.starts_with("truncated report: "), "{msg}");
    assert!(
        msg.contains(&format!(
            "line {title_line}, in section 'Instance Activity Stats'"
        )),
        "{msg}"
    );
    // Cut in the Key table: named as such.
    let (cut, _) = cut_after("redo size", 0);
    match parse_str(&cut).unwrap_err() {
        ParseError::Truncated { at, .. } => {
            assert_eq!(at.section.as_deref(), Some("Key Instance Activity Stats"))
        }
        other => panic!("expected Truncated, got {other:?}"),
    }
}

#[test]
fn every_line_prefix_of_the_19c_text_is_truncated_never_a_panic() {
    let t = text_of("awr/text/awrrpt_19c_small.txt");
    let lines: Vec<&str> = t.lines().collect();
    let heading = lines
        .iter()
        .position(|l| *l == "WORKLOAD REPOSITORY report for")
        .unwrap();
    let end = lines.iter().position(|l| *l == "End of Report").unwrap();
    for n in heading + 1..end {
        let cut = lines[..n].join("\n");
        match parse_str(&cut) {
            Err(ParseError::Truncated { .. }) => {}
            other => panic!("cut after line {n}: {:?}", other.map(|_| "parsed")),
        }
    }
}

#[test]
fn text_that_is_neither_gets_the_unknown_format_message() {
    let e = parse_str("capacity planning notes\nnothing to see here\n").unwrap_err();
    assert!(matches!(e, ParseError::UnknownFormat { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "not a recognised report: expected an Oracle AWR report (HTML or text, with a 'WORKLOAD REPOSITORY' heading), a Statspack report, an OS disk log (iostat, sar, sadf, nmon, OSWatcher) or a vSAN/ESXi export (vSAN performance JSON/SOAP, PowerCLI, telegraf, esxtop, HCIBench)"
    );
}

#[test]
fn text_without_activity_stats_is_a_section_error() {
    let t = text_of("awr/text/awrrpt_19c_small.txt");
    let from = t.find("Key Instance Activity Stats   ").unwrap();
    let to = t.find("IOStat by Function summary").unwrap();
    let cut = format!("{}{}", &t[..from], &t[to..]);
    match parse_str(&cut).unwrap_err() {
        ParseError::Section { at, found, .. } => {
            assert_eq!(at.section.as_deref(), Some("Instance Activity Stats"));
            assert_eq!(found, "no such table");
        }
        other => panic!("expected Section, got {other:?}"),
    }
}

#[test]
fn repeated_header_blank_lines_and_unreadable_cells_are_tolerated() {
    let t = text_of("awr/text/awrrpt_19c_small.txt");
    let base = parse_str(&t).unwrap();
    // A column header (without its title) repeated between two rows, and blank lines.
    let header = "Statistic                                     Total     per Second     per Trans\n\
                  -------------------------------- ------------------ -------------- -------------\n";
    let i = t.find("\nphysical read bytes").unwrap() + 1;
    let mutated = format!("{}\n\n{header}\n{}", &t[..i], &t[i..]);
    let r = parse_str(&mutated).unwrap();
    assert_eq!(format!("{:?}", r.activity), format!("{:?}", base.activity));
    // `######` (a value too wide for its column) is unknown, with a warning naming the section.
    let mutated: String = t
        .lines()
        .map(|l| {
            if l.starts_with("physical read total IO requests") {
                l.replace("       2,400.1", "      ########")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(mutated.contains("########"));
    let r = parse_str(&mutated).unwrap();
    assert_eq!(
        r.activity("physical read total IO requests")
            .unwrap()
            .per_second,
        None
    );
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(
        r.warnings[0].starts_with("section 'Instance Activity Stats' (line "),
        "{}",
        r.warnings[0]
    );
}

#[test]
fn without_wait_event_tables_the_top_events_give_the_averages() {
    let t = text_of("awr/text/awrrpt_19c_small.txt");
    let from = t.find("Foreground Wait Events   ").unwrap();
    let to = t.find("Background Wait Events   ").unwrap();
    let r = parse_str(&format!("{}{}", &t[..from], &t[to..])).unwrap();
    let fg: Vec<(&str, Option<f64>)> = r
        .wait_events
        .iter()
        .filter(|w| w.scope == WaitScope::Foreground)
        .map(|w| (w.event.as_str(), w.avg_wait_ms))
        .collect();
    // Top 10 Foreground Events by Total Wait Time, without its DB CPU row.
    assert_eq!(
        fg,
        vec![
            ("db file sequential read", Some(1.27)),
            ("log file sync", Some(2.12)),
            ("db file scattered read", Some(4.87)),
            ("direct path read", Some(1.89))
        ]
    );
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(
        r.warnings[0].contains("Top 5 / Top 10"),
        "{}",
        r.warnings[0]
    );
}

// ------------------------------------------------------------------------ corpus (real report)

/// The line of `EXPECTED-text.jsonl` for `file`.
fn expected(dir: &Path, file: &str) -> serde_json::Value {
    std::fs::read_to_string(dir.join("EXPECTED-text.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["file"] == file)
        .unwrap_or_else(|| panic!("{file} not in EXPECTED-text.jsonl"))
}

/// Checks a report against its `EXPECTED-text.jsonl` line, to the 1 decimal the text prints.
pub fn check_expected(r: &AwrReport, e: &serde_json::Value) {
    let f = |k: &str| e[k].as_f64().unwrap_or_else(|| panic!("{k}"));
    let ps = |n: &str| r.activity(n).and_then(|s| s.per_second).unwrap();
    assert_eq!(r.efficiency("Buffer Hit %"), Some(f("buffer_hit_pct")));
    for n in [
        "physical read total IO requests",
        "physical write total IO requests",
        "redo writes",
    ] {
        close(Some(ps(n)), f(n), n);
    }
    let measured = ps("physical read total IO requests") + ps("physical write total IO requests");
    close(Some(measured), f("measured_iops"), "measured_iops");
    close(
        Some(measured + ps("redo writes")),
        f("required_iops_seed"),
        "required_iops_seed",
    );
}

const JASMIN: &str = "jasmin-bpsc-12.2.0.1-aix-single-awrrpt.txt";

#[test]
fn corpus_12_2_text_report_gives_its_real_values() {
    let Some(dir) = corpus() else { return };
    let r = match parse_file(&dir.join(JASMIN)) {
        Ok(Parsed::Awr(r)) => *r,
        Ok(other) => panic!("{JASMIN}: not an AWR report: {other:?}"),
        Err(e) => panic!("{JASMIN}: {e}"),
    };
    check_expected(&r, &expected(&dir, JASMIN));
    // Read by hand from the file (line numbers of the corpus file):
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(r.kind, ReportKind::Instance);
    // l.6: BPSC 1135854311 BPSC PRIMARY EE 12.2.0.1.0 NO NO; l.10: bpsc 1 04-Feb-23 15:30
    assert_eq!(
        (r.db.db_name.as_str(), r.db.db_id, r.db.release.as_str()),
        ("BPSC", 1_135_854_311, "12.2.0.1.0")
    );
    assert_eq!(r.db.role.as_deref(), Some("PRIMARY"));
    assert_eq!((r.db.rac, r.db.cdb), (Some(false), Some(false)));
    let i = &r.instances[0];
    assert_eq!((i.name.as_str(), i.number), ("bpsc", 1));
    assert_eq!(
        i.startup.unwrap().to_string(),
        "2023-02-04 15:30:00",
        "l.10"
    );
    // l.14: oracle1 AIX-Based Systems (64-bit) 40 5 (Sockets blank) 502.00
    assert_eq!(i.host.as_deref(), Some("oracle1"));
    assert_eq!((i.cpus, i.cores, i.sockets), (Some(40), Some(5), None));
    close(i.memory_gb, 502.0, "Memory(GB)");
    // l.18-21: snaps 2668-2669, 19:00:39 -> 20:00:54, 60.25 and 66.24 min
    let s = &r.snapshots;
    assert_eq!((s.begin_id, s.end_id), (2668, 2669));
    assert_eq!(s.begin_time.unwrap().to_string(), "2023-02-04 19:00:39");
    assert_eq!(s.end_time.unwrap().to_string(), "2023-02-04 20:00:54");
    close(s.elapsed_min, 60.25, "Elapsed");
    assert_eq!(s.elapsed_decimals, Some(2), "`60.25 (mins)`");
    close(s.db_time_min, 66.24, "DB Time");
    // l.37: Redo size (bytes): 146,118.4 7,016.0; l.42 Read IO requests: 101.5 4.9
    let lp = |n: &str| r.load_profile.iter().find(|l| l.name == n).unwrap();
    close(lp("Redo size (bytes)").per_second, 146_118.4, "Redo size");
    close(
        lp("Read IO requests").per_transaction,
        4.9,
        "Read IO requests",
    );
    assert_eq!(r.load_profile.len(), 22);
    // l.60: Buffer  Hit   %:   99.89
    assert_eq!(r.efficiency("Buffer Hit %"), Some(99.89));
    assert_eq!(r.efficiency.len(), 11);
    // l.112: Total Requests: 152.2 109.4 42.8
    let io = r
        .io_profile
        .iter()
        .find(|x| x.name == "Total Requests")
        .unwrap();
    assert_eq!(
        (io.read_write, io.read, io.write),
        (Some(152.2), Some(109.4), Some(42.8))
    );
    // Instance Activity Stats (l.1969-1983, 2041): Total / per Second / per Trans
    let a = |n: &str| {
        let s = r.activity(n).unwrap_or_else(|| panic!("{n}"));
        (s.total, s.per_second, s.per_trans)
    };
    assert_eq!(
        a("physical read total IO requests"),
        (Some(395_292.0), Some(109.4), Some(5.3))
    );
    assert_eq!(
        a("physical write total IO requests"),
        (Some(154_813.0), Some(42.8), Some(2.1))
    );
    assert_eq!(
        a("physical read total bytes"),
        (Some(4_531_975_168.0), Some(1_253_750.3), Some(60_200.0))
    );
    assert_eq!(
        a("physical write total bytes"),
        (Some(2_298_483_712.0), Some(635_865.1), Some(30_531.7))
    );
    // l.1971 / l.1983: printed cut to 'physical read/write total multi block'
    assert_eq!(
        a("physical read total multi block requests"),
        (Some(994.0), Some(0.3), Some(0.0))
    );
    assert_eq!(
        a("physical write total multi block requests"),
        (Some(3_555.0), Some(1.0), Some(0.1))
    );
    assert_eq!(a("redo writes"), (Some(103_638.0), Some(28.7), Some(1.4)));
    // l.1973, 1917, 1908: the cache hit from the totals is the printed Buffer Hit %.
    let tot = |n: &str| a(n).0.unwrap();
    let hit = 100.0
        * (1.0
            - tot("physical reads cache")
                / (tot("db block gets from cache") + tot("consistent gets from cache")));
    assert_eq!((hit * 100.0).round() / 100.0, 99.89);
    // Key table (l.1765-1783) and the 5 pages of Instance Activity Stats (l.1788-2107): 15 + 290
    // rows, the 15 key statistics repeated in the full table are kept once.
    assert_eq!(r.activity.len(), 290);
    assert_eq!(a("user commits"), (Some(74_563.0), Some(20.6), Some(1.0)));
    assert_eq!(
        r.activity("user commits").unwrap().table,
        "Key Instance Activity Stats"
    );
    // l.2097-2098: two statistics cut to the same 32 characters are both kept.
    assert_eq!(
        r.activity
            .iter()
            .filter(|s| s.name == "transaction tables consistent re")
            .count(),
        2
    );
    // l.2141, 2147: Buffer Cache Re 2.8G 101.1 .801M ... 364.2K 113.87us; TOTAL: ... 109.3 ... 42.8
    let f = |n: &str| r.iostat_function.iter().find(|x| x.name == n).unwrap();
    let bc = f("Buffer Cache Reads");
    close(bc.read_reqs_per_s, 101.1, "Buffer Cache Reads reqs");
    close(bc.read_bytes_per_s, 0.801 * 1_048_576.0, ".801M");
    close(bc.waits, 364_200.0, "364.2K");
    close(bc.avg_wait_ms, 0.11387, "113.87us");
    close(f("TOTAL:").write_reqs_per_s, 42.8, "TOTAL writes");
    // l.2159: Data File ... Small Read 4.42us, Large Read .00ns
    let df = r
        .iostat_filetype
        .iter()
        .find(|x| x.name == "Data File")
        .unwrap();
    close(df.small_read_ms, 0.00442, "4.42us");
    close(df.large_read_ms, 0.0, ".00ns");
    // l.248, 249, 296: waits
    let w = |scope: WaitScope, n: &str| {
        r.wait_events
            .iter()
            .find(|w| w.scope == scope && w.event == n)
            .unwrap_or_else(|| panic!("{n}"))
            .clone()
    };
    let seq = w(WaitScope::Foreground, "db file sequential read");
    assert_eq!(
        (seq.waits, seq.total_wait_s, seq.avg_wait_printed.as_str()),
        (Some(360_121.0), Some(40.0), "109.72us")
    );
    assert_eq!(
        seq.total_wait_decimals,
        Some(0),
        "Total Wait Time `40`, whole seconds"
    );
    close(seq.avg_wait_ms, 0.10972, "109.72us");
    close(
        w(WaitScope::Foreground, "log file sync").avg_wait_ms,
        0.37376,
        "373.76us",
    );
    let lfpw = w(WaitScope::Background, "log file parallel write");
    assert_eq!(lfpw.waits, Some(103_636.0));
    close(lfpw.avg_wait_ms, 0.38673, "386.73us");
    // 'control file sequential re' (l.254) restored.
    assert!(r
        .wait_events
        .iter()
        .any(|w| w.event == "control file sequential read"));
}

#[test]
fn corpus_12_2_text_report_cut_in_instance_activity_stats_is_truncated_there() {
    let Some(dir) = corpus() else { return };
    let t = String::from_utf8(std::fs::read(dir.join(JASMIN)).unwrap()).unwrap();
    // Cut after l.1970 (physical read total bytes), on the fourth page of Instance Activity Stats
    // whose title is on l.1920.
    let cut: String = t.lines().take(1970).collect::<Vec<_>>().join("\n");
    match parse_str(&cut).unwrap_err() {
        ParseError::Truncated { at, .. } => {
            assert_eq!(at.section.as_deref(), Some("Instance Activity Stats"));
            assert_eq!(at.line, Some(1920));
        }
        other => panic!("expected Truncated, got {other:?}"),
    }
}
