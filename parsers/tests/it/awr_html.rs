//! AWR HTML report headers on the shared corpus (`../shared/corpus/awr`, skipped when absent).

use crate::common::awr_corpus;
use sizer_parsers::{parse_file, Parsed};

/// The report's title is its first `<title>`: an Exadata report carries a second one,
/// `Exadata Configuration and Statistics`, before its Exadata section.
#[test]
fn the_title_is_the_reports_first() {
    let Some(dir) = awr_corpus() else { return };
    for (file, title) in [
        (
            "azure-lab1-dbv-19c-exadata-rac-global.html",
            "AWR RAC Report for DB: DBV, Snaps: 12373-12541",
        ),
        (
            "azure-lab1-dbu-19c-exadata-rac-global.html",
            "AWR RAC Report for DB: DBU, Snaps: 15883-16027",
        ),
        (
            "eyko139-prdg1-18c-rac-instance.html",
            "AWR Report for DB: PRDG, Inst: PRDG1, Snaps: 237812-237837",
        ),
    ] {
        let Ok(Parsed::Awr(r)) = parse_file(&dir.join(file)) else {
            panic!("{file}: not read as an AWR report");
        };
        assert_eq!(r.title, title, "{file}");
    }
}

/// The 11.1.0.7 report of `field/`: no table has a `summary`, so every section of the Report
/// Summary is found by its columns (`parsers/src/awr/html/legacy.rs`); the values are the
/// report's own cells.
#[test]
fn an_11_1_report_is_read_by_columns_and_headings() {
    let p = crate::common::shared("field/structureddata-DEMO1-11.1.0.7-rac-instance-60min.html");
    if !p.is_file() {
        crate::common::corpus_absent(&p);
        return;
    }
    let Ok(Parsed::Awr(r)) = parse_file(&p) else {
        panic!("not read as an AWR report");
    };
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(
        r.title,
        "AWR Report for DB: DEMO, Inst: DEMO1, Snaps: 812-813"
    );
    assert_eq!((r.db.db_name.as_str(), r.db.db_id), ("DEMO", 3430975138));
    assert_eq!(r.snapshots.elapsed_min, Some(60.13));
    // Load Profile (plain-text title; columns Per Second, Per Transaction, Per Exec, Per Call).
    let lp = |n: &str| r.load_profile.iter().find(|l| l.name == n).unwrap();
    assert_eq!(lp("Redo size").per_second, Some(803.2));
    assert_eq!(lp("Physical reads").per_second, Some(9_726.0));
    assert_eq!(lp("Physical writes").per_transaction, Some(32_070.7));
    assert_eq!(lp("DB Time(s)").per_exec, Some(0.46));
    assert_eq!(r.load_profile.len(), 15);
    // Instance Efficiency Percentages (no header row): `Buffer  Hit   %:` 99.85.
    let eff = |n: &str| r.efficiency.iter().find(|(k, _)| k == n).unwrap().1;
    assert_eq!(eff("Buffer Hit %"), Some(99.85));
    assert_eq!(eff("Buffer Nowait %"), Some(100.0));
    assert_eq!(r.efficiency.len(), 10);
    // Instance Activity Stats (heading): the IO statistics, Total and per Second as printed.
    let st = |n: &str| r.activity.iter().find(|a| a.name == n).unwrap();
    assert_eq!(
        st("physical read total IO requests").per_second,
        Some(201.76)
    );
    assert_eq!(
        st("physical write total IO requests").per_second,
        Some(125.7)
    );
    assert_eq!(st("redo writes").per_second, Some(0.14));
    assert_eq!(r.rate_decimals, 2);
    // Foreground Wait Events (10 rows) and Background Wait Events, not the Top 5 table (whose
    // 'DB CPU' row has no waits).
    use sizer_parsers::awr::WaitScope;
    let fg: Vec<_> = r
        .wait_events
        .iter()
        .filter(|e| e.scope == WaitScope::Foreground)
        .collect();
    assert!(fg.iter().all(|e| e.event != "DB CPU"));
    let dprt = fg
        .iter()
        .find(|e| e.event == "direct path read temp")
        .unwrap();
    assert_eq!(
        (dprt.waits, dprt.total_wait_s),
        (Some(487_590.0), Some(2_476.0))
    );
    assert_eq!(
        (dprt.avg_wait_printed.as_str(), dprt.avg_wait_ms),
        ("5", Some(5.0))
    );
    assert!(r
        .wait_events
        .iter()
        .any(|e| e.scope == WaitScope::Background && e.event == "log file parallel write"));
    // Host CPU (Report Summary, columns Load Average Begin … %Idle) and Operating System
    // Statistics (BUSY_TIME 425,240 cs = 4,252.4 s).
    let cpu = &r.host_cpu[0];
    assert_eq!(
        (cpu.user_pct, cpu.system_pct, cpu.wio_pct, cpu.idle_pct),
        (Some(13.1), Some(1.4), Some(0.1), Some(85.3))
    );
    assert_eq!(cpu.busy_time_s, Some(4_252.4));
    assert_eq!(cpu.idle_time_s, Some(24_595.27));
    // Wait Event Histogram (heading; `<1ms` … `<=1s`, `>1s`): 'log file parallel write' 491
    // waits, 95.5 % under 1 ms.
    let h = r
        .wait_histograms
        .iter()
        .find(|h| h.event == "log file parallel write")
        .unwrap();
    assert_eq!(h.total_waits, Some(491.0));
    assert_eq!(h.cdf[0], (1.0, 95.5));
}

/// A near miss: an HTML page with an AWR-like header table (DB Name, DB Id, Instance) but no
/// `WORKLOAD REPOSITORY` heading is still not a recognised report; the column lookups of the
/// 10.2/11.1 layout never make a page an AWR report (detection is by content, unchanged).
#[test]
fn an_html_page_with_awr_like_columns_is_not_a_report() {
    let page = "<!DOCTYPE html>\n<html><head><title>Database inventory</title></head><body>\n\
                <h1>Database inventory</h1>\n<table border=\"1\">\n\
                <tr><th>DB Name</th><th>DB Id</th><th>Instance</th><th>Release</th></tr>\n\
                <tr><td>DEMO</td><td>1234567890</td><td>DEMO1</td><td>10.2.0.4.0</td></tr>\n\
                </table>\n<table border=\"1\"><tr><th></th><th>Snap Id</th><th>Snap Time</th></tr>\n\
                <tr><td>Begin Snap:</td><td>1</td><td>01-Jan-10 00:00:00</td></tr></table>\n\
                </body></html>\n";
    let e = sizer_parsers::parse_bytes(page.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("not a recognised report"), "{e}");
}
