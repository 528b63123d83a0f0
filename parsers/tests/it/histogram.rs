//! The Wait Event Histogram tables (`AwrReport::wait_histograms`) of every layout: 11g HTML (one
//! table plus `Detail` tables), 12.2–19c HTML (`Wait Event Histogram` in microseconds plus the
//! `(up to 64 us)` … `(up to 1 hr)` tables), the 19c RAC global table, the 12.2 AWR text report
//! and the 11.2.0.4 Statspack report of the shared corpus (`../shared/corpus/awr`, skipped when
//! absent), and the HTML/text twins of the 19c fixture.
//!
//! Every expected value below was read by hand from the file (line numbers of the corpus file):
//! each table's cells summed left to right. Edges are in ms (`us` = 0.001 ms, `s` = 1024 ms as the
//! reports' legends say).

use crate::common::awr_corpus as corpus;
use crate::common::*;

use std::path::{Path, PathBuf};

use sizer_parsers::awr::{AwrReport, WaitHistogram};
use sizer_parsers::{parse_file, Parsed};

fn report(dir: &Path, file: &str) -> AwrReport {
    match parse_file(&dir.join(file)) {
        Ok(Parsed::Awr(r)) => *r,
        Ok(other) => panic!("{file}: not an AWR report: {other:?}"),
        Err(e) => panic!("{file}: {e}"),
    }
}

fn hist<'a>(r: &'a AwrReport, event: &str) -> &'a WaitHistogram {
    r.wait_histogram(event)
        .unwrap_or_else(|| panic!("no histogram for '{event}'"))
}

/// Every `(edge_ms, cum_pct)` given is a point of the CDF, exactly (the parser rounds away the
/// binary noise of its sums).
#[track_caller]
fn has_points(h: &WaitHistogram, points: &[(f64, f64)]) {
    for p in points {
        assert!(
            h.cdf.contains(p),
            "{}: point {p:?} missing from {:?}",
            h.event,
            h.cdf
        );
    }
}

/// The CDF is well formed: edges strictly ascending, shares in 0..=100 and never falling.
#[track_caller]
fn well_formed(r: &AwrReport, file: &str) {
    for h in &r.wait_histograms {
        for w in h.cdf.windows(2) {
            assert!(w[0].0 < w[1].0, "{file} {}: edges {:?}", h.event, h.cdf);
            assert!(w[0].1 <= w[1].1, "{file} {}: shares {:?}", h.event, h.cdf);
        }
        assert!(
            h.cdf.iter().all(|&(_, c)| (0.0..=100.0).contains(&c)),
            "{file} {}: {:?}",
            h.event,
            h.cdf
        );
    }
}

fn histogram_warnings(r: &AwrReport) -> Vec<&String> {
    r.warnings
        .iter()
        .filter(|w| w.contains("Wait Event Histogram"))
        .collect()
}

// ------------------------------------------------------------------------------ percentile_range

fn h(cdf: &[(f64, f64)]) -> WaitHistogram {
    WaitHistogram {
        event: "x".into(),
        total_waits: None,
        cdf: cdf.to_vec(),
    }
}

#[test]
fn percentile_range_edge_cases() {
    assert_eq!(h(&[]).percentile_range(95.0), None, "empty CDF");
    let c = h(&[(1.0, 58.8), (2.0, 75.0), (4.0, 95.0), (8.0, 99.4)]);
    assert_eq!(
        c.percentile_range(95.0),
        Some((2.0, 4.0)),
        "exactly 95.0 reaches 95"
    );
    assert_eq!(
        c.percentile_range(95.01),
        Some((4.0, 8.0)),
        "no rounding allowance"
    );
    assert_eq!(
        c.percentile_range(50.0),
        Some((0.0, 1.0)),
        "first edge: lower 0"
    );
    assert_eq!(
        c.percentile_range(99.5),
        Some((8.0, f64::INFINITY)),
        "only the open-ended bucket reaches it"
    );
    let open = h(&[(1.0, 0.0), (1024.0, 0.0)]);
    assert_eq!(open.percentile_range(95.0), Some((1024.0, f64::INFINITY)));
    assert_eq!(
        h(&[(0.512, 100.0)]).percentile_range(100.0),
        Some((0.0, 0.512))
    );
}

// ------------------------------------------------------------------------------ fixtures (twins)

#[test]
fn fixture_19c_html_merges_its_tables() {
    let r = awr("awr/awrrpt_19c_small.html");
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let names: Vec<&str> = r.wait_histograms.iter().map(|h| h.event.as_str()).collect();
    assert_eq!(
        names,
        vec![
            "control file parallel write",
            "db file scattered read",
            "db file sequential read",
            "log file parallel write"
        ]
    );
    let seq = hist(&r, "db file sequential read");
    assert_eq!(
        seq.total_waits,
        Some(7_700_000.0),
        "`7.7M` of the first table"
    );
    assert_eq!(
        seq.cdf,
        vec![
            (0.008, 0.0),
            (0.016, 0.0),
            (0.032, 0.0),
            (0.064, 0.0),
            (0.128, 0.5),
            (0.256, 5.0),
            (0.512, 15.0),
            (1.0, 50.0),
            (2.0, 93.0),
            (4.0, 98.0),
            (8.0, 99.5),
            (16.0, 99.9),
            (32.0, 100.0),
            (64.0, 100.0),
            (128.0, 100.0),
            (256.0, 100.0),
            (512.0, 100.0),
            (1024.0, 100.0),
            (2048.0, 100.0),
        ]
    );
    assert_eq!(seq.percentile_range(95.0), Some((2.0, 4.0)));
    assert_eq!(
        hist(&r, "db file scattered read").percentile_range(95.0),
        Some((8.0, 16.0))
    );
    let lfpw = hist(&r, "log file parallel write");
    has_points(
        lfpw,
        &[(0.512, 60.0), (1.0, 95.0), (2.0, 99.0), (8.0, 100.0)],
    );
    assert_eq!(lfpw.percentile_range(95.0), Some((0.512, 1.0)));
    // The last table without this event: its CDF stops at the `(up to 32 ms)` table.
    assert_eq!(lfpw.cdf.last(), Some(&(32.0, 100.0)));
}

#[test]
fn fixture_19c_text_equals_its_html_twin() {
    let h = awr("awr/awrrpt_19c_small.html");
    let t = awr("awr/text/awrrpt_19c_small.txt");
    assert!(t.warnings.is_empty(), "{:?}", t.warnings);
    assert!(!h.wait_histograms.is_empty());
    // Headers cut to five characters (`<128u`, `>=512`, `<512`, `>=32m`) and the event name cut
    // to 25 (`control file parallel wri`) read as the HTML prints them.
    assert_eq!(t.wait_histograms, h.wait_histograms);
}

#[test]
fn fixtures_without_the_section_have_no_histograms() {
    for f in [
        "awr/awrrpt_11203_small.html",
        "awr/text/awrrpt_11204_small.txt",
        "awr/text/awrgrpt_19c_small.html",
        "awr/text/spreport_10g_small.txt",
    ] {
        let r = awr(f);
        assert!(r.wait_histograms.is_empty(), "{f}");
        assert!(histogram_warnings(&r).is_empty(), "{f}");
    }
}

#[test]
fn unreadable_tables_and_rows_are_left_out_with_a_warning() {
    let src =
        String::from_utf8(std::fs::read(fixture("awr/awrrpt_19c_small.html")).unwrap()).unwrap();
    // A row that does not add up to 100 (a cell of `log file parallel write` lost) and a table
    // with an unknown unit.
    let bad_row = src.replacen(
        "<td align=\"right\" headers=\"%ofTotalWaits &lt;1ms\" class='awrnc'>35.0</td>",
        "<td align=\"right\" headers=\"%ofTotalWaits &lt;1ms\" class='awrnc'>&#160;</td>",
        1,
    );
    assert_ne!(bad_row, src);
    let r = parse_str(&bad_row).unwrap();
    let w = histogram_warnings(&r);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("'Wait Event Histogram (up to 32 ms)'")
            && w[0].contains("log file parallel write")
            && w[0].contains("row left out"),
        "{}",
        w[0]
    );
    // The first table still gives the event; its CDF has no point from the bad row.
    let lfpw = hist(&r, "log file parallel write");
    assert_eq!(lfpw.cdf.last(), Some(&(0.512, 60.0)));
    assert_eq!(lfpw.percentile_range(95.0), Some((0.512, f64::INFINITY)));

    let bad_unit = src.replace("&lt;1/8s", "&lt;1/8fortnight");
    let r = parse_str(&bad_unit).unwrap();
    let w = histogram_warnings(&r);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("'Wait Event Histogram (up to 2 sec)'") && w[0].contains("table left out"),
        "{}",
        w[0]
    );
    assert_eq!(
        hist(&r, "db file sequential read").cdf.last(),
        Some(&(32.0, 100.0))
    );
}

// ------------------------------------------------------------------------------ corpus

#[test]
fn corpus_11_2_0_4_html_main_and_detail_tables() {
    let Some(dir) = corpus() else { return };
    let f = "pcambell-xydb-11.2.0.4-single.html";
    let r = report(&dir, f);
    well_formed(&r, f);
    assert!(histogram_warnings(&r).is_empty(), "{:?}", r.warnings);
    // Line 460 (Wait Event Histogram): 92.4K | 58.8 16.2 16.7 7.7 .1 .1 .4 (blank >1s);
    // line 511 (Detail (64 msec to 2 sec)): <32ms 99.6, <64ms .2, <1/8s .2, <1/4s .0, <1/2s .0.
    let h = hist(&r, "log file parallel write");
    assert_eq!(h.total_waits, Some(92_400.0));
    assert_eq!(
        h.cdf[..6],
        [
            (1.0, 58.8),
            (2.0, 75.0),
            (4.0, 91.7),
            (8.0, 99.4),
            (16.0, 99.5),
            (32.0, 99.6)
        ]
    );
    has_points(h, &[(64.0, 99.8), (128.0, 100.0), (1024.0, 100.0)]);
    assert_eq!(h.percentile_range(95.0), Some((4.0, 8.0)));
    assert_eq!(h.percentile_range(99.7), Some((32.0, 64.0)));
}

#[test]
fn corpus_11_2_0_3_html() {
    let Some(dir) = corpus() else { return };
    let f = "sarthi2020-db1uat-11.2.0.3-aix-single.html";
    let r = report(&dir, f);
    well_formed(&r, f);
    assert!(histogram_warnings(&r).is_empty(), "{:?}", r.warnings);
    // Line 440: 1843.1K | 69.3 13.4 9.4 4.8 2.2 .6 .3 .0; line 528 (Detail): 99.7 .2 .1 .0 …
    let h = hist(&r, "db file sequential read");
    assert_eq!(h.total_waits, Some(1_843_100.0));
    has_points(
        h,
        &[
            (1.0, 69.3),
            (2.0, 82.7),
            (4.0, 92.1),
            (8.0, 96.9),
            (16.0, 99.1),
            (32.0, 99.7),
            (64.0, 99.9),
        ],
    );
    assert_eq!(h.percentile_range(95.0), Some((4.0, 8.0)));
    // Line 473: 263.2K | 14.2 23.1 25.8 23.4 11.1 2.0 .4.
    let h = hist(&r, "log file parallel write");
    has_points(h, &[(8.0, 86.5), (16.0, 97.6), (32.0, 99.6)]);
    assert_eq!(h.percentile_range(95.0), Some((8.0, 16.0)));
}

#[test]
fn corpus_19c_html_merges_the_microsecond_and_millisecond_tables() {
    let Some(dir) = corpus() else { return };
    let f = "pcambell-orcl-19c-single-noncdb.html";
    let r = report(&dir, f);
    well_formed(&r, f);
    assert!(histogram_warnings(&r).is_empty(), "{:?}", r.warnings);
    // Line 477 (Wait Event Histogram): 1383 | <8us 3.7, <16us 12.0, <32us 6.4, <64us 1.5,
    // <128us .3, <256us .4, <512us .1 (sum 24.4), >=512us 75.7; line 603 (up to 32 ms): <512us
    // 24.3 (printed directly: kept), <1ms 8.3, <2ms 65.1, <4ms .9, <8ms .4, <16ms .6, <32ms .4.
    let h = hist(&r, "db file sequential read");
    assert_eq!(h.total_waits, Some(1383.0));
    has_points(
        h,
        &[
            (0.008, 3.7),
            (0.016, 15.7),
            (0.032, 22.1),
            (0.064, 23.6),
            (0.512, 24.3),
            (1.0, 32.6),
            (2.0, 97.7),
            (4.0, 98.6),
            (32.0, 100.0),
        ],
    );
    assert_eq!(h.percentile_range(95.0), Some((1.0, 2.0)));
    // Line 614 (up to 32 ms): <4ms 36.9, <8ms 58.0, <16ms 3.6, <32ms 1.0, >=32ms .5;
    // line 644 (up to 2 sec): <32ms 99.5, <64ms .4, <1/8s .0.
    let h = hist(&r, "log file parallel write");
    assert_eq!(h.total_waits, Some(2106.0));
    has_points(
        h,
        &[
            (4.0, 36.9),
            (8.0, 94.9),
            (16.0, 98.5),
            (32.0, 99.5),
            (64.0, 99.9),
        ],
    );
    assert_eq!(h.percentile_range(95.0), Some((8.0, 16.0)));
}

#[test]
fn corpus_exadata_p95_in_the_sub_millisecond_buckets() {
    let Some(dir) = corpus() else { return };
    // 12.2 Exadata, re-saved by a browser (upper-case tags, unquoted attributes, CRLF).
    let f = "azure-lab1-dbs-12.2.0.1-exadata-single-instance-of-rac.html";
    let r = report(&dir, f);
    well_formed(&r, f);
    assert!(histogram_warnings(&r).is_empty(), "{:?}", r.warnings);
    // Lines 7470-7481: 99M | <256us 15.8, <512us 80.0, >=512us 4.2; lines 12665-12676 (up to
    // 32 ms): <512us 95.8, <1ms 1.9, <2ms 1.0, <4ms 1.0, <8ms .2, <16ms .1, <32ms .0, >=32ms .0.
    let h = hist(&r, "cell single block physical read");
    assert_eq!(h.total_waits, Some(99_000_000.0));
    has_points(
        h,
        &[
            (0.128, 0.0),
            (0.256, 15.8),
            (0.512, 95.8),
            (1.0, 97.7),
            (2.0, 98.7),
            (4.0, 99.7),
        ],
    );
    assert_eq!(h.percentile_range(95.0), Some((0.256, 0.512)));
    // `db file sequential read` (24.1K waits) is also a sub-millisecond read here.
    let h = hist(&r, "db file sequential read");
    has_points(h, &[(0.128, 27.5), (0.256, 98.5)]);
    assert_eq!(h.percentile_range(95.0), Some((0.128, 0.256)));
    assert_eq!(
        hist(&r, "cell multiblock physical read").percentile_range(95.0),
        Some((4.0, 8.0))
    );

    // 18c RAC instance on Exadata. Line 842: 1.1M | <256us 4.6, <512us 86.8, >=512us 8.6;
    // line 1221 (up to 32 ms): <512us 91.4, <1ms 6.8, <2ms 1.1.
    let f = "eyko139-prdg1-18c-rac-instance.html";
    let r = report(&dir, f);
    well_formed(&r, f);
    assert!(histogram_warnings(&r).is_empty(), "{:?}", r.warnings);
    let h = hist(&r, "cell single block physical read");
    assert_eq!(h.total_waits, Some(1_100_000.0));
    has_points(h, &[(0.256, 4.6), (0.512, 91.4), (1.0, 98.2), (2.0, 99.3)]);
    assert_eq!(h.percentile_range(95.0), Some((0.512, 1.0)));
}

#[test]
fn corpus_19c_rac_global_histogram() {
    let Some(dir) = corpus() else { return };
    let f = "azure-lab1-dbu-19c-exadata-rac-global.html";
    let r = report(&dir, f);
    well_formed(&r, f);
    assert!(histogram_warnings(&r).is_empty(), "{:?}", r.warnings);
    // Line 1244 (Wait Event Histogram (Global), one bucket per column, `0.0(759)` = below 0.05 %
    // with its count): 193M | <16us 0.0(759), <32us 0.0(95549), <64us 0.2, <128us 0.8, <256us
    // 55.4, <512us 36.8, <1ms 3.8, <2ms 1.5, <4ms 0.8, <8ms 0.5, <16ms 0.2, then 0.0(…).
    let h = hist(&r, "log file parallel write");
    assert_eq!(h.total_waits, Some(193_000_000.0));
    has_points(
        h,
        &[
            (0.064, 0.2),
            (0.128, 1.0),
            (0.256, 56.4),
            (0.512, 93.2),
            (1.0, 97.0),
            (2.0, 98.5),
            (16.0, 100.0),
        ],
    );
    assert_eq!(h.percentile_range(95.0), Some((0.512, 1.0)));
}

#[test]
fn corpus_12_2_text_report() {
    let Some(dir) = corpus() else { return };
    let f = "jasmin-bpsc-12.2.0.1-aix-single-awrrpt.txt";
    let r = report(&dir, f);
    well_formed(&r, f);
    assert!(histogram_warnings(&r).is_empty(), "{:?}", r.warnings);
    // Line 395 (headers `<128u <256u <512u >=512`): 363.3K | 90.6 5.4 3.6 .4; line 559 (up to
    // 32 ms, header `<512`): 99.6 .3 .1 .1 .0 .0 .0 .0.
    let h = hist(&r, "db file sequential read");
    assert_eq!(h.total_waits, Some(363_300.0));
    has_points(
        h,
        &[
            (0.064, 0.0),
            (0.128, 90.6),
            (0.256, 96.0),
            (0.512, 99.6),
            (1.0, 99.9),
            (2.0, 100.0),
        ],
    );
    assert_eq!(h.percentile_range(95.0), Some((0.128, 0.256)));
    // Line 412: 103.6K | <512u 92.8, >=512 7.2; the (up to 32 ms) row: 92.8 5.7 1.3 .2 .0 .0 .0.
    let h = hist(&r, "log file parallel write");
    assert_eq!(h.total_waits, Some(103_600.0));
    has_points(h, &[(0.256, 0.0), (0.512, 92.8), (1.0, 98.5), (2.0, 99.8)]);
    assert_eq!(h.percentile_range(95.0), Some((0.512, 1.0)));
    // A name cut to 25 characters is restored: `control file parallel wri`.
    assert!(r.wait_histogram("control file parallel write").is_some());
}

#[test]
fn corpus_statspack_report() {
    let Some(dir) = corpus() else { return };
    let f = "theyanvictor-igt-11.2.0.4-statspack.txt";
    let r = report(&dir, f);
    well_formed(&r, f);
    // Line 348 (`Waits` under the `Total` group): 3216 | 59.0 10.4 17.7 9.0 3.0 .8 .1 (<=1s).
    let h = hist(&r, "db file async I/O submit");
    assert_eq!(h.total_waits, Some(3216.0));
    assert_eq!(
        h.cdf,
        vec![
            (1.0, 59.0),
            (2.0, 69.4),
            (4.0, 87.1),
            (8.0, 96.1),
            (16.0, 99.1),
            (32.0, 99.9),
            (1024.0, 100.0)
        ]
    );
    assert_eq!(h.percentile_range(95.0), Some((4.0, 8.0)));
    // Line 378 (second page): 61K | 99.3 .4 .3 .0 .0.
    let h = hist(&r, "log file parallel write");
    assert_eq!(h.total_waits, Some(61_000.0));
    has_points(h, &[(1.0, 99.3), (2.0, 99.7), (4.0, 100.0)]);
    assert_eq!(h.percentile_range(95.0), Some((0.0, 1.0)));
    // Line 341: `Streams AQ: qmn coordinato    1 … 100.0` under `>1s`: only the open bucket.
    // Line 405 prints another event cut to the same 26 characters: left out, with a warning.
    let h = hist(&r, "Streams AQ: qmn coordinato");
    assert_eq!(h.total_waits, Some(1.0));
    assert_eq!(h.percentile_range(95.0), Some((1024.0, f64::INFINITY)));
    let w = histogram_warnings(&r);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("(line 405)") && w[0].contains("Streams AQ: qmn coordinato"));
}

#[test]
fn corpus_every_report_reads_without_histogram_warnings() {
    let Some(dir) = corpus() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html" || x == "txt"))
        .collect();
    files.sort();
    for p in files {
        let f = p.file_name().unwrap().to_string_lossy().to_string();
        let r = report(&dir, &f);
        well_formed(&r, &f);
        if f.contains("pdb-report") {
            assert!(
                r.wait_histograms.is_empty(),
                "{f}: a PDB report prints none"
            );
        } else {
            assert!(
                r.wait_histograms.len() > 50,
                "{f}: {}",
                r.wait_histograms.len()
            );
        }
        if !f.contains("statspack") {
            assert!(histogram_warnings(&r).is_empty(), "{f}: {:?}", r.warnings);
        }
        for h in &r.wait_histograms {
            assert!(h.percentile_range(95.0).is_some(), "{f} {}", h.event);
        }
    }
}
