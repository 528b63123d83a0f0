//! The AWR HTML parser on the hand-made fixtures in `fixtures/` (see `fixtures/README.md`).
//!
//! Every expected value below is written in the fixture's own header comment, so it can be checked
//! by hand: 19c = 3,600 s and 180,000 transactions; 11.2.0.3 = 1,800 s and 54,000 transactions.

use crate::common::*;

use chrono::NaiveDateTime;
use proptest::prelude::*;
use sizer_parsers::awr::{AwrReport, ReportKind, WaitScope};
use sizer_parsers::{parse_bytes, parse_file, ParseError};

fn err(rel: &str) -> ParseError {
    match parse_file(&fixture(rel)) {
        Ok(_) => panic!("{rel}: parsed, but it must be rejected"),
        Err(e) => e,
    }
}

fn dt(s: &str) -> Option<NaiveDateTime> {
    Some(NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap())
}

/// Rounds half away from zero to `d` decimals, as AWR prints.
fn round(v: f64, d: i32) -> f64 {
    let m = 10f64.powi(d);
    (v * m).round() / m
}

const MIB: f64 = 1_048_576.0;

/// (statistic, Total, per Second, per Trans) as printed in the fixture.
type Stat = (&'static str, f64, f64, f64);

fn check_activity(r: &AwrReport, rows: &[Stat]) {
    for &(name, total, ps, pt) in rows {
        let s = r
            .activity(name)
            .unwrap_or_else(|| panic!("activity '{name}' missing"));
        close(s.total, total, &format!("{name} Total"));
        close(s.per_second, ps, &format!("{name} per Second"));
        close(s.per_trans, pt, &format!("{name} per Trans"));
    }
}

/// The fixture is internally consistent: every per Second / per Trans is its Total divided by the
/// elapsed seconds / the transactions, rounded to 2 decimals.
fn check_rates(r: &AwrReport, elapsed_s: f64, transactions: f64) {
    assert!(r.activity.len() > 20, "{} activity rows", r.activity.len());
    for s in &r.activity {
        let t = s.total.unwrap();
        close(
            s.per_second,
            round(t / elapsed_s, 2),
            &format!("{} per Second", s.name),
        );
        close(
            s.per_trans,
            round(t / transactions, 2),
            &format!("{} per Trans", s.name),
        );
    }
}

fn load(r: &AwrReport, name: &str) -> (Option<f64>, Option<f64>) {
    let row = r
        .load_profile
        .iter()
        .find(|l| l.name == name)
        .unwrap_or_else(|| panic!("Load Profile '{name}' missing"));
    (row.per_second, row.per_transaction)
}

fn wait<'a>(r: &'a AwrReport, scope: WaitScope, ev: &str) -> &'a sizer_parsers::awr::WaitEvent {
    r.wait_events
        .iter()
        .find(|w| w.scope == scope && w.event == ev)
        .unwrap_or_else(|| panic!("{scope:?} wait event '{ev}' missing"))
}

#[test]
fn awrrpt_19c_small_header() {
    let r = awr("awr/awrrpt_19c_small.html");
    assert_eq!(r.kind, ReportKind::Instance);
    assert_eq!(r.heading, "WORKLOAD REPOSITORY report for");
    assert!(r.title.starts_with("AWR Report for DB: "), "{}", r.title);
    assert_eq!(r.encoding, "UTF-8");
    assert!(r.warnings.is_empty(), "warnings: {:?}", r.warnings);

    let db = &r.db;
    assert_eq!(db.db_name, "SIZDEMO");
    assert_eq!(db.db_id, 3_141_592_653);
    assert_eq!(db.unique_name.as_deref(), Some("sizdemo"));
    assert_eq!(db.role.as_deref(), Some("PRIMARY"));
    assert_eq!(db.edition.as_deref(), Some("EE"));
    assert_eq!(db.release, "19.0.0.0.0");
    assert_eq!(db.rac, Some(false));
    assert_eq!(db.cdb, Some(false));
    assert!(db.containers.is_empty());

    assert_eq!(r.instances.len(), 1);
    let i = &r.instances[0];
    assert_eq!(i.name, "sizdemo");
    assert_eq!(i.number, 1);
    assert_eq!(i.startup, dt("2024-03-01 06:12:00"));
    assert_eq!(i.host.as_deref(), Some("db01.example.com"));
    assert_eq!(i.platform.as_deref(), Some("Linux x86 64-bit"));
    assert_eq!(i.cpus, Some(16));
    assert_eq!(i.cores, Some(8));
    assert_eq!(i.sockets, Some(1));
    close(i.memory_gb, 125.79, "Memory (GB)");

    let s = &r.snapshots;
    assert_eq!((s.begin_id, s.end_id), (4711, 4712));
    assert_eq!(s.begin_time, dt("2024-03-12 10:00:05"));
    assert_eq!(s.end_time, dt("2024-03-12 11:00:05"));
    close(s.elapsed_min, 60.0, "Elapsed");
    close(s.db_time_min, 300.0, "DB Time");
    let span = s.end_time.unwrap() - s.begin_time.unwrap();
    assert_eq!(span.num_seconds(), 3600, "snap times agree with Elapsed");
}

#[test]
fn awrrpt_19c_small_activity() {
    let r = awr("awr/awrrpt_19c_small.html");
    check_activity(
        &r,
        &[
            (
                "physical read total IO requests",
                8_640_432.0,
                2_400.12,
                48.00,
            ),
            (
                "physical write total IO requests",
                2_160_324.0,
                600.09,
                12.00,
            ),
            ("redo writes", 540_036.0, 150.01, 3.00),
            (
                "physical read total bytes",
                82_027_708_416.0,
                22_785_474.56,
                455_709.49,
            ),
            (
                "physical write total bytes",
                27_654_648_476.0,
                7_681_846.80,
                153_636.94,
            ),
            (
                "physical read total multi block requests",
                86_400.0,
                24.00,
                0.48,
            ),
            (
                "physical write total multi block requests",
                21_600.0,
                6.00,
                0.12,
            ),
            ("physical reads cache", 9_359_716.0, 2_599.92, 52.00),
            ("db block gets from cache", 12_960_450.0, 3_600.13, 72.00),
            (
                "consistent gets from cache",
                131_040_210.0,
                36_400.06,
                728.00,
            ),
            ("physical read IO requests", 8_563_716.0, 2_378.81, 47.58),
            ("physical write IO requests", 1_008_072.0, 280.02, 5.60),
            ("session logical reads", 144_000_660.0, 40_000.18, 800.00),
            ("user commits", 180_000.0, 50.00, 1.00),
            ("user rollbacks", 0.0, 0.00, 0.00),
        ],
    );
    check_rates(&r, 3600.0, 180_000.0);
    // The Key table comes first; a statistic repeated in the full table is kept once, from the Key table.
    let slr = r.activity("session logical reads").unwrap();
    assert_eq!(slr.table, "Key Instance Activity Stats");
    let prt = r.activity("physical read total IO requests").unwrap();
    assert_eq!(prt.table, "Instance Activity Stats");
    assert_eq!(
        r.activity
            .iter()
            .filter(|s| s.name == "session logical reads")
            .count(),
        1
    );
    // Hand figures: redo writes are a subset of the writes; Buffer Hit % from the totals.
    let total = |n: &str| r.activity(n).unwrap().total.unwrap();
    assert!(total("redo writes") < total("physical write total IO requests"));
    let hit = 100.0
        * (1.0
            - total("physical reads cache")
                / (total("db block gets from cache") + total("consistent gets from cache")));
    assert_eq!(round(hit, 2), 93.50);
    assert_eq!(
        total("session logical reads"),
        total("db block gets from cache") + total("consistent gets from cache")
    );
}

#[test]
fn awrrpt_19c_small_summary_sections() {
    let r = awr("awr/awrrpt_19c_small.html");
    assert_eq!(r.load_profile.len(), 19);
    let dbt = r
        .load_profile
        .iter()
        .find(|l| l.name == "DB Time(s)")
        .unwrap();
    close(dbt.per_second, 5.0, "DB Time(s) per Second");
    close(dbt.per_transaction, 0.1, "DB Time(s) per Transaction");
    close(dbt.per_exec, 0.0, "DB Time(s) per Exec");
    close(dbt.per_call, 0.01, "DB Time(s) per Call");
    for (name, ps, pt) in [
        ("Redo size (bytes)", 2_447_873.8, 48_957.5),
        ("Logical read (blocks)", 40_000.2, 800.0),
        ("Physical read (blocks)", 2_738.8, 54.8),
        ("Read IO requests", 2_378.8, 47.6),
        ("Write IO requests", 280.0, 5.6),
        ("Read IO (MB)", 21.4, 0.4),
        ("Executes (SQL)", 2_000.0, 40.0),
    ] {
        let (a, b) = load(&r, name);
        close(a, ps, &format!("{name} per Second"));
        close(b, pt, &format!("{name} per Transaction"));
    }
    let (a, b) = load(&r, "Transactions");
    close(a, 50.0, "Transactions per Second");
    assert_eq!(
        b, None,
        "the empty Per Transaction cell of Transactions is unknown"
    );
    let lr = r
        .load_profile
        .iter()
        .find(|l| l.name == "Read IO requests")
        .unwrap();
    assert_eq!(
        (lr.per_exec, lr.per_call),
        (None, None),
        "&#160; cells are unknown"
    );

    let io = |name: &str| {
        r.io_profile
            .iter()
            .find(|x| x.name == name)
            .unwrap_or_else(|| panic!("IO Profile '{name}' missing"))
    };
    let t = io("Total Requests");
    close(t.read_write, 3_000.2, "Total Requests Read+Write");
    close(t.read, 2_400.1, "Total Requests Read");
    close(t.write, 600.1, "Total Requests Write");
    let d = io("Database Requests");
    close(d.read_write, 2_658.8, "Database Requests Read+Write");
    close(d.read, 2_378.8, "Database Requests Read");
    close(d.write, 280.0, "Database Requests Write");
    let mb = io("Total (MB)");
    close(mb.read_write, 29.1, "Total (MB) Read+Write");
    close(mb.read, 21.7, "Total (MB) Read");
    close(mb.write, 7.3, "Total (MB) Write");
    let rr = io("Redo Requests");
    close(
        rr.write,
        300.0,
        "Redo Requests Write (2 log members x redo writes)",
    );

    assert_eq!(r.efficiency("Buffer Hit %"), Some(93.50));
    assert_eq!(r.efficiency("Library Hit %"), Some(99.87));
    assert_eq!(r.efficiency("Execute to Parse %"), Some(87.50));
    assert_eq!(r.efficiency("Flash Cache Hit %"), Some(0.0));
    assert_eq!(r.efficiency.len(), 11);
}

#[test]
fn awrrpt_19c_small_iostat_and_waits() {
    let r = awr("awr/awrrpt_19c_small.html");
    let f = |n: &str| {
        r.iostat_function
            .iter()
            .find(|x| x.name == n)
            .unwrap_or_else(|| panic!("IOStat by Function '{n}' missing"))
    };
    assert_eq!(r.iostat_function.len(), 6);
    let bc = f("Buffer Cache Reads");
    assert_eq!(bc.instance, None);
    close(
        bc.read_reqs_per_s,
        2_370.13,
        "Buffer Cache Reads Reqs per sec",
    );
    close(
        bc.read_bytes_per_s,
        20.31 * MIB,
        "Buffer Cache Reads Data per sec (20.31M)",
    );
    close(
        bc.write_reqs_per_s,
        0.0,
        "Buffer Cache Reads write Reqs per sec",
    );
    close(
        bc.waits,
        8_532_500.0,
        "Buffer Cache Reads Waits: Count (8532.5K)",
    );
    close(bc.avg_wait_ms, 1.29, "Buffer Cache Reads Avg Time (1.29ms)");
    let lgwr = f("LGWR");
    close(lgwr.write_reqs_per_s, 300.02, "LGWR write Reqs per sec");
    close(
        lgwr.write_bytes_per_s,
        4.67 * MIB,
        "LGWR write Data per sec (4.67M)",
    );
    close(lgwr.avg_wait_ms, 0.56321, "LGWR Avg Time (563.21us)");
    let others = f("Others");
    close(
        others.read_bytes_per_s,
        0.333 * MIB,
        "Others Data per sec (.333M)",
    );
    let tot = f("TOTAL:");
    close(tot.read_reqs_per_s, 2_400.12, "TOTAL read Reqs per sec");
    close(tot.write_reqs_per_s, 600.09, "TOTAL write Reqs per sec");
    close(
        tot.read_bytes_per_s,
        21.73 * MIB,
        "TOTAL read Data per sec (21.73M)",
    );
    // The function table adds up to the activity statistics.
    let sum: f64 = r
        .iostat_function
        .iter()
        .filter(|x| x.name != "TOTAL:")
        .map(|x| x.read_reqs_per_s.unwrap())
        .sum();
    assert!(
        (sum - 2_400.12).abs() < 0.005,
        "sum of function reads {sum}"
    );

    let ft = |n: &str| {
        r.iostat_filetype
            .iter()
            .find(|x| x.name == n)
            .unwrap_or_else(|| panic!("IOStat by Filetype '{n}' missing"))
    };
    assert_eq!(r.iostat_filetype.len(), 4);
    let df = ft("Data File");
    close(df.read_reqs_per_s, 2_378.81, "Data File Reqs per sec");
    close(
        df.read_bytes_per_s,
        21.40 * MIB,
        "Data File Data per sec (21.40M)",
    );
    close(df.write_reqs_per_s, 280.02, "Data File write Reqs per sec");
    close(df.small_read_ms, 1.27, "Data File Small Read");
    close(df.large_read_ms, 4.87, "Data File Large Read");
    let lf = ft("Log File");
    close(lf.write_reqs_per_s, 300.02, "Log File write Reqs per sec");
    assert_eq!(lf.small_read_ms, None, "&#160; service time is unknown");
    close(
        ft("Control File").small_read_ms,
        0.80211,
        "Control File Small Read (802.11us)",
    );

    let seq = wait(&r, WaitScope::Foreground, "db file sequential read");
    close(seq.avg_wait_ms, 1.27, "db file sequential read avg");
    assert_eq!(seq.avg_wait_printed, "1.27ms");
    close(seq.waits, 7_650_000.0, "db file sequential read waits");
    close(seq.total_wait_s, 9_716.0, "db file sequential read total");
    close(
        wait(&r, WaitScope::Foreground, "db file scattered read").avg_wait_ms,
        4.87,
        "db file scattered read avg",
    );
    close(
        wait(&r, WaitScope::Foreground, "log file sync").avg_wait_ms,
        2.12,
        "log file sync avg",
    );
    let lfpw = wait(&r, WaitScope::Background, "log file parallel write");
    close(
        lfpw.avg_wait_ms,
        0.56321,
        "log file parallel write avg (563.21us)",
    );
    assert_eq!(lfpw.avg_wait_printed, "563.21us");
    close(
        lfpw.waits,
        540_036.0,
        "log file parallel write waits = redo writes",
    );
    // Only the two wait-event tables, not the Report Summary's Top 10 (which has a DB CPU row).
    let n = |s| r.wait_events.iter().filter(|w| w.scope == s).count();
    assert_eq!((n(WaitScope::Foreground), n(WaitScope::Background)), (5, 3));
    assert!(r.wait_events.iter().all(|w| w.event != "DB CPU"));
}

#[test]
fn awrrpt_11203_small_header() {
    let r = awr("awr/awrrpt_11203_small.html");
    assert_eq!(r.kind, ReportKind::Instance);
    assert_eq!(r.heading, "WORKLOAD REPOSITORY report for");
    assert!(r.title.starts_with("AWR Report for DB: "), "{}", r.title);
    assert_eq!(
        r.encoding, "windows-1252",
        "the 0xB5 byte makes it invalid UTF-8"
    );
    assert!(r.warnings.is_empty(), "warnings: {:?}", r.warnings);

    let db = &r.db;
    assert_eq!(db.db_name, "SIZOLD");
    assert_eq!(db.db_id, 2_718_281_828);
    assert_eq!(db.release, "11.2.0.3.0");
    assert_eq!(db.rac, Some(false));
    assert_eq!(db.cdb, None, "11.2 prints no CDB column");
    assert_eq!(
        (&db.unique_name, &db.role, &db.edition),
        (&None, &None, &None)
    );

    assert_eq!(r.instances.len(), 1);
    let i = &r.instances[0];
    assert_eq!(i.name, "sizold");
    assert_eq!(i.number, 1);
    assert_eq!(i.startup, dt("2019-02-04 21:37:00"));
    assert_eq!(i.host.as_deref(), Some("db02.example.com"));
    assert_eq!(i.platform.as_deref(), Some("AIX-Based Systems (64-bit)"));
    assert_eq!(i.cpus, Some(8));
    assert_eq!(i.cores, Some(2));
    assert_eq!(i.sockets, None, "&nbsp; Sockets cell is unknown");
    close(i.memory_gb, 32.0, "Memory (GB)");

    let s = &r.snapshots;
    assert_eq!((s.begin_id, s.end_id), (100, 101));
    assert_eq!(s.begin_time, dt("2019-02-18 14:00:12"));
    assert_eq!(s.end_time, dt("2019-02-18 14:30:12"));
    close(s.elapsed_min, 30.0, "Elapsed");
    close(s.db_time_min, 230.0, "DB Time");
}

#[test]
fn awrrpt_11203_small_sections() {
    let r = awr("awr/awrrpt_11203_small.html");
    check_activity(
        &r,
        &[
            (
                "physical read total IO requests",
                2_160_594.0,
                1_200.33,
                40.01,
            ),
            ("physical write total IO requests", 270_162.0, 150.09, 5.00),
            ("redo writes", 108_054.0, 60.03, 2.00),
            (
                "physical read total bytes",
                57_745_686_528.0,
                32_080_936.96,
                1_069_364.57,
            ),
            (
                "physical write total bytes",
                3_067_292_238.0,
                1_704_051.24,
                56_801.71,
            ),
            (
                "physical read total multi block requests",
                324_090.0,
                180.05,
                6.00,
            ),
            (
                "physical write total multi block requests",
                3_618.0,
                2.01,
                0.07,
            ),
            ("physical reads cache", 6_772_854.0, 3_762.70, 125.42),
            ("db block gets from cache", 6_300_540.0, 3_500.30, 116.68),
            (
                "consistent gets from cache",
                187_200_900.0,
                104_000.50,
                3_466.68,
            ),
            ("physical read IO requests", 2_133_504.0, 1_185.28, 39.51),
            ("physical write IO requests", 135_018.0, 75.01, 2.50),
            ("session logical reads", 193_501_440.0, 107_500.80, 3_583.36),
        ],
    );
    check_rates(&r, 1800.0, 54_000.0);
    assert!(r
        .activity
        .iter()
        .all(|s| s.table == "Instance Activity Stats"));
    let total = |n: &str| r.activity(n).unwrap().total.unwrap();
    let hit = 100.0
        * (1.0
            - total("physical reads cache")
                / (total("db block gets from cache") + total("consistent gets from cache")));
    assert_eq!(round(hit, 2), 96.50);

    assert!(r.io_profile.is_empty(), "11.2.0.3 has no IO Profile");
    assert_eq!(r.efficiency("Buffer Hit %"), Some(96.50));
    assert_eq!(r.efficiency("Execute to Parse %"), Some(85.00));
    assert_eq!(r.load_profile.len(), 15);
    for (name, ps, pt) in [
        ("Redo size", 720_192.0, 24_006.4),
        ("Logical reads", 107_500.8, 3_583.4),
        ("Physical reads", 3_886.0, 129.5),
        ("Executes", 1_800.1, 60.0),
    ] {
        let (a, b) = load(&r, name);
        close(a, ps, &format!("{name} per Second"));
        close(b, pt, &format!("{name} per Transaction"));
    }
    close(load(&r, "Transactions").0, 30.0, "Transactions per Second");

    let f = |n: &str| r.iostat_function.iter().find(|x| x.name == n).unwrap();
    let bc = f("Buffer Cache Reads");
    close(
        bc.read_reqs_per_s,
        1_177.57,
        "Buffer Cache Reads Reqs per sec",
    );
    close(
        bc.read_bytes_per_s,
        29.3961 * MIB,
        "Buffer Cache Reads Data per sec (bare MiB 29.3961)",
    );
    close(bc.avg_wait_ms, 4.41, "Buffer Cache Reads Avg Tm(ms)");
    close(
        f("Direct Reads").read_bytes_per_s,
        0.963542 * MIB,
        "Direct Reads Data per sec (.963542)",
    );
    let tot = f("TOTAL:");
    close(tot.read_reqs_per_s, 1_200.33, "TOTAL read Reqs per sec");
    close(tot.write_reqs_per_s, 150.09, "TOTAL write Reqs per sec");
    close(
        tot.write_bytes_per_s,
        1.62511 * MIB,
        "TOTAL write Data per sec (1.62511)",
    );
    let df = r
        .iostat_filetype
        .iter()
        .find(|x| x.name == "Data File")
        .unwrap();
    close(df.read_reqs_per_s, 1_185.28, "Data File Reqs per sec");
    close(df.small_read_ms, 3.96, "Data File Small Read (bare ms)");
    close(df.large_read_ms, 8.91, "Data File Large Read (bare ms)");

    let seq = wait(&r, WaitScope::Foreground, "db file sequential read");
    close(
        seq.avg_wait_ms,
        4.0,
        "db file sequential read avg (integer ms)",
    );
    assert_eq!(seq.avg_wait_printed, "4");
    close(seq.total_wait_s, 7_160.0, "db file sequential read total");
    close(
        wait(&r, WaitScope::Foreground, "db file scattered read").avg_wait_ms,
        9.0,
        "db file scattered read avg",
    );
    close(
        wait(&r, WaitScope::Foreground, "log file sync").avg_wait_ms,
        6.0,
        "log file sync avg",
    );
    let lfpw = wait(&r, WaitScope::Background, "log file parallel write");
    close(lfpw.avg_wait_ms, 3.0, "log file parallel write avg");
    close(
        lfpw.waits,
        108_054.0,
        "log file parallel write waits = redo writes",
    );
    // Not the "Top 5 Timed Foreground Events" table.
    assert!(r.wait_events.iter().all(|w| w.event != "DB CPU"));
    assert_eq!(
        r.wait_events
            .iter()
            .filter(|w| w.event == "db file sequential read")
            .count(),
        1
    );
}

#[test]
fn fixture_11203_has_the_browser_resave_quirks() {
    let bytes = std::fs::read(fixture("awr/awrrpt_11203_small.html")).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "must not be valid UTF-8"
    );
    assert_eq!(bytes.iter().filter(|&&b| b == 0xB5).count(), 1);
    let lf = bytes.iter().filter(|&&b| b == b'\n').count();
    let crlf = bytes.windows(2).filter(|w| w == b"\r\n").count();
    assert_eq!(lf, crlf, "every line ends with CRLF");
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.starts_with("\r\nSQL> set termout off"));
    assert!(text.trim_end().ends_with("SQL> exit"));
    assert!(text.contains("Report written to awrrpt_1_100_101.html"));
    assert!(text.contains("<TABLE border=1 summary="));
    assert!(!text.contains("<table"), "tags are upper-case");
}

#[test]
fn empty_file_is_rejected() {
    let e = err("bad/empty.html");
    assert!(matches!(e, ParseError::Empty), "{e:?}");
    assert_eq!(
        e.to_string(),
        "the file is empty: expected an AWR or Statspack report, or an OS disk log"
    );
}

#[test]
fn ordinary_html_page_is_not_a_report() {
    let e = err("bad/not-awr.html");
    assert!(matches!(e, ParseError::UnknownFormat { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.starts_with("not a recognised report: "), "{msg}");
    assert!(msg.contains("'WORKLOAD REPOSITORY'"), "{msg}");
    assert!(msg.contains("expected an Oracle AWR report"), "{msg}");
}

#[test]
fn truncated_report_names_the_table_it_stopped_in() {
    let path = fixture("bad/truncated.html");
    let text = std::fs::read_to_string(&path).unwrap();
    // 1-based line of the <table> tag of the (full) Instance Activity Stats table.
    let table_line = text
        .lines()
        .position(|l| l.contains("summary=\"This table displays Instance activity statistics."))
        .unwrap()
        + 1;
    let e = err("bad/truncated.html");
    match &e {
        ParseError::Truncated { what, at } => {
            assert_eq!(at.section.as_deref(), Some("Instance Activity Stats"));
            assert_eq!(at.line, Some(table_line));
            assert!(what.contains("</table>"), "{what}");
        }
        other => panic!("expected Truncated, got {other:?}"),
    }
    let msg = e.to_string();
    assert!(msg.starts_with("truncated report: "), "{msg}");
    assert!(
        msg.contains(&format!(
            "line {table_line}, in section 'Instance Activity Stats'"
        )),
        "{msg}"
    );
}

#[test]
fn binary_file_is_rejected_with_the_offset() {
    let e = err("bad/binary.html");
    assert!(matches!(e, ParseError::Binary { offset: 8 }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains("looks binary"), "{msg}");
    assert!(msg.contains("byte offset 8"), "{msg}");
    assert!(msg.contains("expected an AWR or Statspack report"), "{msg}");
}

#[test]
fn report_without_activity_stats_is_a_section_error() {
    let e = err("bad/no-activity.html");
    match &e {
        ParseError::Section {
            at,
            expected,
            found,
        } => {
            assert_eq!(at.section.as_deref(), Some("Instance Activity Stats"));
            assert!(
                expected.contains("Statistic, Total, per Second, per Trans"),
                "{expected}"
            );
            assert_eq!(found, "no such table");
        }
        other => panic!("expected Section, got {other:?}"),
    }
    let msg = e.to_string();
    assert!(
        msg.starts_with("in section 'Instance Activity Stats': expected a table of statistics"),
        "{msg}"
    );
}

#[test]
fn missing_file_is_an_io_error_carrying_the_path() {
    let p = fixture("bad/does-not-exist.html");
    let e = parse_file(&p).unwrap_err();
    match &e {
        ParseError::Io { path, .. } => assert_eq!(path, &p),
        other => panic!("expected Io, got {other:?}"),
    }
    // The caller prefixes the path (as `sizer: PATH: ...`), so the message does not repeat it.
    assert!(e.to_string().starts_with("cannot read the file: "), "{e}");
}

#[test]
fn parsed_report_serialises_to_json() {
    let r = parse_file(&fixture("awr/awrrpt_19c_small.html")).unwrap();
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["format"], "awr");
    assert_eq!(v["kind"], "instance");
    assert_eq!(v["db"]["db_id"], 3_141_592_653u64);
    assert_eq!(v["snapshots"]["begin_time"], "2024-03-12T10:00:05");
}

fn good_19c() -> &'static [u8] {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| std::fs::read(fixture("awr/awrrpt_19c_small.html")).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any prefix of the good 19c fixture that stops after its first table starts and before
    /// `</html>` is reported as truncated, never parsed and never a panic.
    #[test]
    fn every_prefix_of_the_19c_fixture_is_truncated(frac in 0.0f64..1.0) {
        let bytes = good_19c();
        let first_table = bytes.windows(6).position(|w| w == b"<table").unwrap() + 6;
        let html_end = bytes.windows(7).rposition(|w| w == b"</html>").unwrap();
        let cut = first_table + ((html_end - first_table) as f64 * frac) as usize;
        match parse_bytes(&bytes[..cut]) {
            Err(ParseError::Truncated { .. }) => {}
            other => prop_assert!(false, "cut at {}: {:?}", cut, other.map(|_| "parsed")),
        }
    }
}

/// The 10.2 layout (`awrrpt_10204_small.html`, hand figures in its comment): no `summary`
/// attributes, the host at the end of the header table, `Wait Events` instead of `Foreground Wait
/// Events`, Operating System Statistics with a `Total` column.
#[test]
fn awrrpt_10204_small_header_and_sections() {
    let r = awr("awr/awrrpt_10204_small.html");
    assert_eq!(r.kind, ReportKind::Instance);
    assert_eq!(
        r.title,
        "AWR Report for DB: SIZTEN, Inst: sizten, Snaps: 250-251"
    );
    assert_eq!(
        (r.db.db_name.as_str(), r.db.db_id, r.db.release.as_str()),
        ("SIZTEN", 1_618_033_988, "10.2.0.4.0")
    );
    assert_eq!((r.db.rac, r.db.cdb), (Some(false), None));
    let i = &r.instances[0];
    assert_eq!((i.name.as_str(), i.number), ("sizten", 1));
    assert_eq!(
        i.host.as_deref(),
        Some("db03.example.com"),
        "the header's Host column"
    );
    assert_eq!(i.startup, None, "10.2 prints no Startup Time");
    // No host table: the size from Operating System Statistics, NUM_CPUS 4 and
    // PHYSICAL_MEMORY_BYTES 17,179,869,184 = 16 × 2^30; no platform, cores or sockets printed.
    assert_eq!(
        (i.platform.as_deref(), i.cpus, i.cores),
        (None, Some(4), None)
    );
    assert_eq!(i.memory_gb, Some(16.0));
    let s = &r.snapshots;
    assert_eq!((s.begin_id, s.end_id), (250, 251));
    assert_eq!(s.begin_time, dt("2011-03-14 09:00:04"));
    assert_eq!(s.end_time, dt("2011-03-14 10:00:04"));
    close(s.elapsed_min, 60.0, "Elapsed");
    close(s.db_time_min, 173.18, "DB Time");

    check_activity(
        &r,
        &[
            (
                "physical read total IO requests",
                1_440_360.0,
                400.10,
                40.01,
            ),
            ("physical write total IO requests", 540_180.0, 150.05, 15.01),
            ("redo writes", 108_036.0, 30.01, 3.00),
            (
                "physical read total bytes",
                17_845_407_744.0,
                4_957_057.71,
                495_705.77,
            ),
            (
                "physical write total bytes",
                5_699_521_536.0,
                1_583_200.43,
                158_320.04,
            ),
            ("physical reads cache", 1_926_324.0, 535.09, 53.51),
        ],
    );
    check_rates(&r, 3600.0, 36_000.0);
    assert!(r.io_profile.is_empty() && r.iostat_function.is_empty());
    assert!(
        r.wait_histograms.is_empty(),
        "10.2 prints no Wait Event Histogram"
    );
    // Load Profile (2 columns in 10.2) and Instance Efficiency, found by their columns and cells.
    assert_eq!(r.load_profile.len(), 12);
    assert_eq!(load(&r, "Physical reads"), (Some(585.09), Some(58.51)));
    assert_eq!(load(&r, "Redo size"), (Some(300_000.0), Some(30_000.0)));
    // 100 × (1 − 1,926,324 / 72,000,000) = 97.32455 → 97.32.
    assert_eq!(r.efficiency("Buffer Hit %"), Some(97.32));
    assert_eq!(
        r.efficiency.len(),
        10,
        "not the '% Blocks changed per Read' table"
    );
    // `Wait Events` (8 rows, background events among them) read as foreground, with a warning;
    // `Background Wait Events` (3 rows) as background; the Top 5 table is not read.
    let n = |sc| r.wait_events.iter().filter(|w| w.scope == sc).count();
    assert_eq!((n(WaitScope::Foreground), n(WaitScope::Background)), (8, 3));
    assert!(r.wait_events.iter().all(|w| w.event != "CPU time"));
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(
        r.warnings[0].contains("section 'Wait Events'"),
        "{:?}",
        r.warnings
    );
    let ev = |e: &str| r.wait_events.iter().find(|w| w.event == e).unwrap();
    let seq = ev("db file sequential read");
    assert_eq!(
        (seq.waits, seq.total_wait_s),
        (Some(1_350_324.0), Some(6_752.0))
    );
    assert_eq!(
        (seq.avg_wait_printed.as_str(), seq.avg_wait_ms),
        ("5", Some(5.0))
    );
    assert_eq!(ev("log file sync").avg_wait_ms, Some(3.0));
    // Operating System Statistics `Total` (centiseconds): BUSY 432,000, IDLE 1,008,000, IOWAIT
    // 72,000; 10.2 prints no Host CPU table, so the percentages are unknown.
    let cpu = &r.host_cpu[0];
    assert_eq!(
        (cpu.busy_time_s, cpu.idle_time_s, cpu.iowait_time_s),
        (Some(4_320.0), Some(10_080.0), Some(720.0))
    );
    assert_eq!((cpu.user_pct, cpu.idle_pct), (None, None));
}

/// Without any wait-event table (the 10.2 fixture cut before `Wait Events`, its Instance Activity
/// Stats kept), the Top 5 Timed Events give the foreground averages, with a warning; the `CPU
/// time` row, which has no waits, is no event.
#[test]
fn awrrpt_10204_top5_stands_in_when_no_wait_event_table_is_printed() {
    let text = std::fs::read_to_string(fixture("awr/awrrpt_10204_small.html")).unwrap();
    let (head, rest) = text.split_at(text.find("<a class=\"awr\" name=\"100\"></a>").unwrap());
    let tail = &rest[rest.find("<a class=\"awr\" name=\"23\"></a>").unwrap()..];
    let r = parse_str(&format!("{head}{tail}")).unwrap();
    let fg: Vec<_> = r
        .wait_events
        .iter()
        .map(|w| (w.scope, w.event.as_str(), w.avg_wait_printed.as_str()))
        .collect();
    // Top 5: db file sequential read 5, CPU time (time, not a wait: left out), db file scattered
    // read 12, log file parallel write 2, log file sync 3 (Time(s) 6,752 / 432 / 216 / 107).
    assert_eq!(fg.len(), 4, "{fg:?}");
    assert!(fg.iter().all(|(s, _, _)| *s == WaitScope::Foreground));
    assert_eq!(
        fg[0],
        (WaitScope::Foreground, "db file sequential read", "5")
    );
    let seq = &r.wait_events[0];
    assert_eq!(
        (seq.waits, seq.total_wait_s),
        (Some(1_350_324.0), Some(6_752.0))
    );
    assert!(r.wait_events.iter().all(|w| w.event != "CPU time"));
    assert_eq!(fg[3], (WaitScope::Foreground, "log file sync", "3"));
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(r.warnings[0].contains("Top 5"), "{:?}", r.warnings);
    // The cut report still has its activity statistics: 1,440,360 / 3,600 = 400.10.
    assert_eq!(
        r.activity("physical read total IO requests")
            .unwrap()
            .per_second,
        Some(400.10)
    );
}
