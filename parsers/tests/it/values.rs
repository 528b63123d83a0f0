//! Issue 14, items 1 and 2: a value is a finite number or unknown; locale and shape. Real corpus
//! reports transformed in memory (never a copy of a corpus file in the project), and small
//! hand-made logs.

use sizer_parsers::awr::AwrReport;
use sizer_parsers::{parse_bytes, ParseError, Parsed};

use crate::common::{awr_corpus, close};

fn corpus(name: &str) -> Option<String> {
    let dir = awr_corpus()?;
    Some(String::from_utf8(std::fs::read(dir.join(name)).unwrap()).unwrap())
}

fn awr(text: &str) -> Result<AwrReport, ParseError> {
    match parse_bytes(text.as_bytes())? {
        Parsed::Awr(r) => Ok(*r),
        other => panic!("not an AWR report: {other:?}"),
    }
}

/// The text as an AWR run with `NLS_NUMERIC_CHARACTERS = ',.'` (de_DE) prints it.
fn as_de_de(text: &str) -> String {
    sizer_parsers::num::to_decimal_comma(text)
}

fn per_s(r: &AwrReport, stat: &str) -> Option<f64> {
    r.activity(stat).and_then(|s| s.per_second)
}

/// pcambell-xydb 11.2.0.4 HTML printed in de_DE: `4.111.819`, `1.140,38`, `60,09 (mins)`.
/// Read right, it gives the C report's values: 1,140.38 read requests/s (not 1.14), 4,111,819
/// in total, elapsed 60.09 min, IO Profile 1,435.8 (= 1,140.38 + 295.42).
#[test]
fn decimal_comma_html_report_is_told_and_read_right() {
    let Some(c) = corpus("pcambell-xydb-11.2.0.4-single.html") else {
        return;
    };
    let de = as_de_de(&c);
    assert!(
        de.contains(">1.140,38<") && de.contains(">4.111.819<"),
        "transform"
    );
    let (rc, rd) = (awr(&c).unwrap(), awr(&de).unwrap());
    close(
        per_s(&rd, "physical read total IO requests"),
        1140.38,
        "read/s",
    );
    close(
        per_s(&rd, "physical write total IO requests"),
        295.42,
        "write/s",
    );
    close(
        rd.activity("physical read total IO requests")
            .unwrap()
            .total,
        4_111_819.0,
        "read total",
    );
    close(rd.snapshots.elapsed_min, 60.09, "elapsed");
    let io = rd.io_profile.iter().find(|p| p.name == "Total Requests");
    close(io.and_then(|p| p.read_write), 1435.8, "IO Profile");
    assert_eq!(rd.rate_decimals, rc.rate_decimals);
    // Every statistic as the C report's.
    assert_eq!(rd.activity.len(), rc.activity.len());
    for (a, b) in rd.activity.iter().zip(&rc.activity) {
        assert_eq!(
            (&a.name, a.per_second, a.total),
            (&b.name, b.per_second, b.total)
        );
    }
    assert!(
        rd.warnings[0].starts_with("numbers printed with a decimal comma"),
        "{:?}",
        rd.warnings
    );
    assert!(!rc.warnings.iter().any(|w| w.contains("decimal comma")));
}

/// The AWR text report (jasmin-bpsc 12.2.0.1) in de_DE: the swap keeps every column in place, so
/// the fixed-width reader gives `physical read total IO requests` 395,292 in total and 109.4/s,
/// and the IO Profile total 152.2/s.
#[test]
fn decimal_comma_text_report_is_read_right() {
    let Some(c) = corpus("jasmin-bpsc-12.2.0.1-aix-single-awrrpt.txt") else {
        return;
    };
    let de = as_de_de(&c);
    assert!(de.contains("395.292") && de.contains("109,4"), "transform");
    let rd = awr(&de).unwrap();
    close(
        per_s(&rd, "physical read total IO requests"),
        109.4,
        "read/s",
    );
    close(
        rd.activity("physical read total IO requests")
            .unwrap()
            .total,
        395_292.0,
        "read total",
    );
    close(rd.snapshots.elapsed_min, 60.25, "elapsed");
}

/// A report whose IO Profile total disagrees with its Instance Activity rows is misread: an
/// error naming both, not a footnote. xydb: 1,140.38 + 295.42 = 1,435.80 against a printed
/// 31,435.8.
#[test]
fn io_profile_that_disagrees_with_instance_activity_is_an_error() {
    let Some(c) = corpus("pcambell-xydb-11.2.0.4-single.html") else {
        return;
    };
    assert!(awr(&c).is_ok());
    let bad = c.replacen("           1,435.8", "          31,435.8", 1);
    assert_ne!(bad, c);
    let e = awr(&bad).unwrap_err().to_string();
    assert!(e.contains("IO Profile"), "{e}");
    assert!(e.contains("31435.8") && e.contains("1435.8"), "{e}");
}

/// A row of Instance Activity Stats missing its middle cell (`per Second`) would read its `per
/// Trans` (44.80) as per Second: the row is an error, its values unknown, with a warning naming
/// the section, its line and the statistic.
#[test]
fn activity_row_missing_a_cell_is_an_error_for_the_row() {
    let Some(c) = corpus("pcambell-xydb-11.2.0.4-single.html") else {
        return;
    };
    let row = "<td align=\"right\" class='awrnc'>4,111,819</td><td align=\"right\" class='awrnc'>1,140.38</td>";
    assert!(c.contains(row));
    let cut = c.replacen(row, "<td align=\"right\" class='awrnc'>4,111,819</td>", 1);
    let r = awr(&cut).unwrap();
    assert_eq!(per_s(&r, "physical read total IO requests"), None);
    let w = r.warnings.join("\n");
    assert!(
        w.contains("physical read total IO requests: the row has 3 cells, expected 4"),
        "{w}"
    );
    assert!(w.contains("(line "), "{w}");
    // The other rows are read as before.
    close(
        per_s(&r, "physical write total IO requests"),
        295.42,
        "write/s",
    );
}

/// NaN, inf, 1e308 and -1 in the AWR cell behind read IOPS: unknown, never a number, with a
/// warning naming the section, the line and the statistic.
#[test]
fn non_finite_negative_and_huge_awr_cells_are_unknown() {
    let Some(c) = corpus("pcambell-xydb-11.2.0.4-single.html") else {
        return;
    };
    for bad in ["NaN", "inf", "1e308", "-1"] {
        let m = c.replacen(">1,140.38<", &format!(">{bad}<"), 1);
        let r = awr(&m).unwrap();
        assert_eq!(per_s(&r, "physical read total IO requests"), None, "{bad}");
        let w = r.warnings.join("\n");
        assert!(
            w.contains(&format!(
                "(line 1731), physical read total IO requests: '{bad}' is"
            )),
            "{bad}: {w}"
        );
    }
}

/// A hand-made Linux iostat `-x` log whose device rows hold NaN, inf, 1e308 and -1 in `r/s`:
/// each is unknown, with one warning per column naming the device, the column and the line of
/// the first refused cell's report (line 7: the time stamp line above its header), and how many
/// more cells of it there were. The host figures of those reports are
/// unknown, never one device short.
#[test]
fn non_finite_iostat_cells_are_unknown_with_a_warning() {
    let mut log = String::from("Linux 5.15.0 (db01) \t01/12/2026 \t_x86_64_\t(8 CPU)\n\n");
    for (k, v) in ["10.00", "NaN", "inf", "1e308", "-1"].iter().enumerate() {
        log.push_str(&format!(
            "01/12/2026 10:0{k}:00 AM\nDevice            r/s     w/s     rkB/s     wkB/s  %util\n\
             sda             {v}   5.00     40.00     20.00   1.00\n\n"
        ));
    }
    let Parsed::Devices(d) = parse_bytes(log.as_bytes()).unwrap() else {
        panic!("not a device log")
    };
    let r: Vec<Option<f64>> = d
        .reports
        .iter()
        .map(|r| r.devices[0].normalised.read_iops)
        .collect();
    assert_eq!(r, vec![Some(10.0), None, None, None, None]);
    // The total of a sample with a refused part is unknown too.
    assert_eq!(d.reports[1].devices[0].normalised.total_iops, None);
    let w = d.warnings.join("\n");
    assert!(
        w.contains("device sda, column 'r/s', line 7 (report): 'NaN' is not a finite number — treated as unknown (and 3 more cells of it, the first is shown)"),
        "{w}"
    );
}

/// One iostat line that does not fit its header, mid-file (`sdb 1.00 2.00` cut to `sdb 1.00`),
/// read as the engine reads a log (streamed, [`sizer_parsers::parse_path_into`]): its report is
/// left out and named in the skipped lines (line 9, what was expected), and the rest of the log
/// is read (reports of lines 3 and 11, not only the one before the cut line).
#[test]
fn iostat_line_that_does_not_fit_its_header_mid_file_is_skipped_and_the_rest_read() {
    let head = "Linux 5.15.0 (db01) \t01/12/2026 \t_x86_64_\t(8 CPU)\n\n";
    let report = |sdb: &str| format!("Device r/s w/s\nsda 1.00 2.00\nsdb {sdb}\n\n");
    let text = format!(
        "{head}{}{}{}",
        report("3.00 4.00"),
        report("1.00"),
        report("5.00 6.00")
    );
    let path = std::env::temp_dir().join(format!("values-iostat-cut-{}.txt", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let mut sink = sizer_parsers::sink::Collect::new();
    let r = sizer_parsers::parse_path_into(&path, &Default::default(), &mut sink);
    std::fs::remove_file(&path).unwrap();
    r.unwrap();
    let Some(Parsed::Devices(d)) = sink.into_parsed() else {
        panic!("not a device log")
    };
    let lines: Vec<usize> = d.reports.iter().map(|r| r.line).collect();
    assert_eq!(lines, vec![3, 11]);
    close(
        d.reports[1].devices[1].normalised.read_iops,
        5.0,
        "sdb after the cut line",
    );
    assert_eq!(d.skipped.len(), 1, "{:?}", d.skipped);
    assert_eq!(d.skipped[0].line, 9);
    assert!(
        d.skipped[0].reason.contains("2 values") && d.skipped[0].reason.contains("'sdb 1.00'"),
        "{:?}",
        d.skipped
    );
}

/// The same in the text report (jasmin-bpsc 12.2.0.1): `physical read total IO requests 395,292
/// 109.4 5.3` with its per-Second cell gone puts 5.3 (per Trans) under per Second. The row is an
/// error, its values unknown, with a warning naming the section, the line (1969) and the
/// statistic; the neighbouring row is read as before (physical read total bytes 1,253,750.3/s).
#[test]
fn text_activity_row_missing_a_cell_is_an_error_for_the_row() {
    let Some(c) = corpus("jasmin-bpsc-12.2.0.1-aix-single-awrrpt.txt") else {
        return;
    };
    let row = "physical read total IO requests             395,292          109.4           5.3\n";
    let cut = "physical read total IO requests             395,292            5.3\n";
    assert!(c.contains(row));
    let r = awr(&c.replacen(row, cut, 1)).unwrap();
    assert_eq!(per_s(&r, "physical read total IO requests"), None);
    let w = r.warnings.join("\n");
    assert!(
        w.contains("(line 1969), physical read total IO requests: expected Total, per Second and per Trans, found 2 of them"),
        "{w}"
    );
    close(
        per_s(&r, "physical read total bytes"),
        1_253_750.3,
        "bytes/s",
    );
}
