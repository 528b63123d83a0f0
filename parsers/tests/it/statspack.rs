//! The Statspack parser (`sizer_parsers::awr::statspack`) on the hand-made 10g fixture
//! `fixtures/awr/text/spreport_10g_small.txt` and on the real 11.2.0.4 Statspack report of the
//! shared corpus (`../shared/corpus/awr/theyanvictor-igt-11.2.0.4-statspack.txt`, skipped when
//! absent). The corpus figures below were read by hand from the file; each cites its line.

use crate::common::*;

use std::path::{Path, PathBuf};

use sizer_parsers::awr::{AwrReport, ReportKind, WaitScope};
use sizer_parsers::{parse_file, ParseError, Parsed};

fn parse_path(p: &Path) -> AwrReport {
    match parse_file(p) {
        Ok(Parsed::Awr(r)) => *r,
        Ok(other) => panic!("{}: not an AWR report: {other:?}", p.display()),
        Err(e) => panic!("{}: {e}", p.display()),
    }
}

/// (Total, per Second, per Trans) of a statistic.
fn stat(r: &AwrReport, n: &str) -> (Option<f64>, Option<f64>, Option<f64>) {
    let s = r.activity(n).unwrap_or_else(|| panic!("'{n}' missing"));
    (s.total, s.per_second, s.per_trans)
}

fn wait<'a>(r: &'a AwrReport, scope: WaitScope, ev: &str) -> &'a sizer_parsers::awr::WaitEvent {
    r.wait_events
        .iter()
        .find(|w| w.scope == scope && w.event == ev)
        .unwrap_or_else(|| panic!("{scope:?} '{ev}' missing"))
}

#[test]
fn statspack_10g_fixture_hand_figures() {
    // Figures from the fixture's comment block: 3,600 s, 72,000 transactions.
    let r = parse_path(&fixture("awr/text/spreport_10g_small.txt"));
    assert_eq!(r.kind, ReportKind::Instance);
    assert_eq!(r.heading, "STATSPACK report for");
    assert_eq!(
        r.title,
        "Statspack report for DB: SIZSP, Inst: sizsp, Snaps: 51-52"
    );
    assert_eq!(
        r.db.db_name, "SIZSP",
        "from the page titles 'DB/Inst: SIZSP/sizsp'"
    );
    assert_eq!(r.db.db_id, 3_605_551_275);
    assert_eq!(r.db.release, "10.2.0.5.0");
    assert_eq!(r.db.rac, Some(false));
    let i = &r.instances[0];
    assert_eq!((i.name.as_str(), i.number), ("sizsp", 1));
    assert_eq!(i.startup.unwrap().to_string(), "2024-04-01 02:10:00");
    assert_eq!(i.host.as_deref(), Some("db07.example.com"), "10g host line");
    assert_eq!(i.cpus, Some(4));
    close(i.memory_gb, 16.0, "Phys Memory (MB) 16,384 / 1024");
    let s = &r.snapshots;
    assert_eq!((s.begin_id, s.end_id), (51, 52));
    close(s.elapsed_min, 60.0, "Elapsed");
    assert_eq!(s.db_time_min, None, "10g prints no DB time line");

    assert_eq!(
        stat(&r, "physical read total IO requests"),
        (Some(1_008_000.0), Some(280.0), Some(14.0))
    );
    assert_eq!(
        stat(&r, "physical write total IO requests"),
        (Some(288_000.0), Some(80.0), Some(4.0))
    );
    assert_eq!(
        stat(&r, "redo writes"),
        (Some(72_000.0), Some(20.0), Some(1.0))
    );
    assert_eq!(
        stat(&r, "physical read total multi block requests"),
        (Some(36_000.0), Some(10.0), Some(0.5)),
        "'physical read total multi block r' restored"
    );
    assert_eq!(r.activity.len(), 17, "both pages, not the absolute values");
    assert!(r.activity("logons current").is_none());
    assert_eq!(r.efficiency("Buffer Hit %"), Some(97.00));
    assert_eq!(r.efficiency.len(), 10);
    assert_eq!(r.load_profile.len(), 12, "not the '% Blocks changed' lines");
    let lp = r
        .load_profile
        .iter()
        .find(|l| l.name == "Redo size")
        .unwrap();
    close(lp.per_second, 102_400.0, "Redo size per Second");
    close(lp.per_transaction, 5_120.0, "Redo size per Transaction");
    assert!(r.iostat_function.is_empty(), "10g has no IO Stat tables");

    // 10g: one 'Wait Events' table (foreground and background), read as foreground.
    close(
        wait(&r, WaitScope::Foreground, "db file sequential read").avg_wait_ms,
        4.0,
        "db file sequential read",
    );
    close(
        wait(&r, WaitScope::Foreground, "log file sync").avg_wait_ms,
        3.0,
        "log file sync",
    );
    let lfpw = wait(&r, WaitScope::Background, "log file parallel write");
    close(lfpw.avg_wait_ms, 2.0, "log file parallel write");
    close(lfpw.waits, 72_000.0, "= redo writes");
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(r.warnings[0].contains("'Wait Events'"), "{}", r.warnings[0]);
    assert!(r.wait_events.iter().all(|w| w.event != "CPU time"));
}

#[test]
fn statspack_cut_in_instance_activity_stats_is_truncated_there() {
    let t = std::fs::read_to_string(fixture("awr/text/spreport_10g_small.txt")).unwrap();
    let lines: Vec<&str> = t.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("physical reads cache"))
        .unwrap();
    let title = (0..at)
        .rev()
        .find(|&i| lines[i].starts_with("Instance Activity Stats  DB/Inst:"))
        .unwrap();
    let cut = lines[..=at].join("\n");
    match parse_str(&cut).unwrap_err() {
        ParseError::Truncated { what, at } => {
            assert_eq!(at.section.as_deref(), Some("Instance Activity Stats"));
            assert_eq!(at.line, Some(title + 1));
            assert!(what.contains("End of Report"), "{what}");
        }
        other => panic!("expected Truncated, got {other:?}"),
    }
    // Every line prefix is truncated, never parsed and never a panic.
    let head = lines
        .iter()
        .position(|l| *l == "STATSPACK report for")
        .unwrap();
    for n in head + 1..lines.len() - 1 {
        assert!(
            matches!(
                parse_str(&lines[..n].join("\n")),
                Err(ParseError::Truncated { .. })
            ),
            "cut after line {n}"
        );
    }
}

// ------------------------------------------------------------------------ corpus (real report)

const FILE: &str = "theyanvictor-igt-11.2.0.4-statspack.txt";

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/awr");
    if dir.join(FILE).is_file() {
        Some(dir)
    } else {
        crate::common::corpus_absent(&dir);
        None
    }
}

#[test]
fn corpus_statspack_gives_its_real_values() {
    let Some(dir) = corpus() else { return };
    let r = parse_path(&dir.join(FILE));
    assert_eq!(r.kind, ReportKind::Instance);
    assert_eq!(r.heading, "STATSPACK report for");
    assert_eq!(r.encoding, "UTF-8");

    // EXPECTED-text.jsonl (values read independently), to the 1 decimal Statspack prints:
    // buffer_hit_pct 98.68, read 7.4, write 5.1, redo writes 0.7, measured 12.5, required 13.2.
    let e: serde_json::Value = std::fs::read_to_string(dir.join("EXPECTED-text.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["file"] == FILE)
        .expect("the Statspack file is in EXPECTED-text.jsonl");
    let f = |k: &str| e[k].as_f64().unwrap();
    assert_eq!(r.efficiency("Buffer Hit %"), Some(f("buffer_hit_pct")));
    let ps = |n: &str| stat(&r, n).1.unwrap();
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

    // Header, l.3-5: `Database DB Id Instance Inst Num Startup Time Release RAC`, the Database
    // column blank, then `1066102538 igt 1 15-Sep-15 08:45 11.2.0.4.0 NO`; the name IGT comes
    // from the page titles (`DB/Inst: IGT/igt`, first on l.90).
    assert_eq!(r.db.db_name, "IGT");
    assert_eq!(r.db.db_id, 1_066_102_538);
    assert_eq!(r.db.release, "11.2.0.4.0");
    assert_eq!(r.db.rac, Some(false));
    assert_eq!(r.db.cdb, None);
    let i = &r.instances[0];
    assert_eq!((i.name.as_str(), i.number), ("igt", 1));
    assert_eq!(i.startup.unwrap().to_string(), "2015-09-15 08:45:00");
    // l.9: `my_server-aps-1  Linux x86 64-bit  12  6  1  31.3` (Memory (G)).
    assert_eq!(i.host.as_deref(), Some("my_server-aps-1"));
    assert_eq!(i.platform.as_deref(), Some("Linux x86 64-bit"));
    assert_eq!((i.cpus, i.cores, i.sockets), (Some(12), Some(6), Some(1)));
    close(i.memory_gb, 31.3, "Memory (G)");
    // l.13-16: snaps 6693 31-Jan-16 00:00:03 -> 6723 01-Feb-16 00:00:02, Elapsed 1,439.98
    // (mins), DB time 10.30 (mins).
    let s = &r.snapshots;
    assert_eq!((s.begin_id, s.end_id), (6693, 6723));
    assert_eq!(s.begin_time.unwrap().to_string(), "2016-01-31 00:00:03");
    assert_eq!(s.end_time.unwrap().to_string(), "2016-02-01 00:00:02");
    close(s.elapsed_min, 1_439.98, "Elapsed");
    assert_eq!(s.elapsed_decimals, Some(2), "Elapsed printed to 0.01 min");
    close(s.db_time_min, 10.30, "DB time");
    assert_eq!(
        r.title,
        "Statspack report for DB: IGT, Inst: igt, Snaps: 6693-6723"
    );

    // Load Profile l.23-39: 15 rows; l.27 `Redo size: 11,431.3 20,020.5`, l.30 `Physical reads:
    // 17.5 30.7`, l.39 `Transactions: 0.6`.
    assert_eq!(r.load_profile.len(), 15);
    let lp = |n: &str| r.load_profile.iter().find(|l| l.name == n).unwrap();
    close(lp("Redo size").per_second, 11_431.3, "Redo size /s");
    close(lp("Redo size").per_transaction, 20_020.5, "Redo size /txn");
    close(lp("Physical reads").per_second, 17.5, "Physical reads /s");
    close(lp("Transactions").per_second, 0.6, "Transactions /s");
    assert_eq!(lp("Transactions").per_transaction, None);

    // Instance Efficiency Indicators l.41-46 (10 values); l.44 `Buffer  Hit   %:   98.68
    // Optimal W/A Exec %:  100.00`.
    assert_eq!(r.efficiency.len(), 10);
    assert_eq!(r.efficiency("Buffer Hit %"), Some(98.68));
    assert_eq!(r.efficiency("Optimal W/A Exec %"), Some(100.00));
    assert!(r.io_profile.is_empty(), "Statspack has no IO Profile");

    // Instance Activity Stats: 5 pages with the rate columns (titles l.1263, 1323, 1383, 1443,
    // 1503; 250 rows), not the absolute-value (l.1535) and thread (l.1546) pages.
    assert_eq!(r.activity.len(), 250);
    assert!(r
        .activity
        .iter()
        .all(|s| s.table == "Instance Activity Stats"));
    assert!(r.activity("logons current").is_none());
    assert!(r.activity("log switches (derived)").is_none());
    // l.1426 `physical read total IO requests 641,372 7.4 13.0`
    assert_eq!(
        stat(&r, "physical read total IO requests"),
        (Some(641_372.0), Some(7.4), Some(13.0))
    );
    // l.1438 `physical write total IO requests 440,701 5.1 8.9`
    assert_eq!(
        stat(&r, "physical write total IO requests"),
        (Some(440_701.0), Some(5.1), Some(8.9))
    );
    // l.1483 `redo writes 61,305 0.7 1.2`
    assert_eq!(
        stat(&r, "redo writes"),
        (Some(61_305.0), Some(0.7), Some(1.2))
    );
    // l.1427 / l.1439 total bytes
    assert_eq!(
        stat(&r, "physical read total bytes"),
        (Some(25_520_497_664.0), Some(295_379.6), Some(517_321.4))
    );
    assert_eq!(
        stat(&r, "physical write total bytes"),
        (Some(10_242_704_896.0), Some(118_551.2), Some(207_628.0))
    );
    // l.1428 `physical read total multi block r 70,064 0.8 1.4` and l.1440 `physical write
    // total multi block 9,807 0.1 0.2`: names cut to 33 characters, restored.
    assert_eq!(
        stat(&r, "physical read total multi block requests"),
        (Some(70_064.0), Some(0.8), Some(1.4))
    );
    assert_eq!(
        stat(&r, "physical write total multi block requests"),
        (Some(9_807.0), Some(0.1), Some(0.2))
    );
    // l.1430 physical reads cache 328,663; l.1372 db block gets from cache 6,349,443; l.1365
    // consistent gets from cache 18,492,635: 100 × (1 − 328,663 / 24,842,078) = 98.677 → 98.68,
    // the printed Buffer Hit %.
    let t = |n: &str| stat(&r, n).0.unwrap();
    assert_eq!(t("physical reads cache"), 328_663.0);
    assert_eq!(t("db block gets from cache"), 6_349_443.0);
    assert_eq!(t("consistent gets from cache"), 18_492_635.0);
    let hit = 100.0
        * (1.0
            - t("physical reads cache")
                / (t("db block gets from cache") + t("consistent gets from cache")));
    assert_eq!((hit * 100.0).round() / 100.0, 98.68);
    // l.1525 user commits 49,332 0.6 1.0
    assert_eq!(
        stat(&r, "user commits"),
        (Some(49_332.0), Some(0.6), Some(1.0))
    );

    // IO Stat by Function - summary, l.1613-1629: 7 functions, no TOTAL row.
    assert_eq!(r.iostat_function.len(), 7);
    assert!(r.iostat_filetype.is_empty());
    let f = |n: &str| {
        r.iostat_function
            .iter()
            .find(|x| x.name == n)
            .unwrap_or_else(|| panic!("IO Stat '{n}'"))
    };
    // l.1626 `Buffer Cache Re  2330M  2.1  .0M  (no writes)  175K  0.0`
    let bc = f("Buffer Cache Reads");
    close(bc.read_reqs_per_s, 2.1, "Buffer Cache Reads Requests /sec");
    assert_eq!(bc.write_reqs_per_s, None, "blank write columns");
    close(bc.waits, 175_000.0, "175K");
    close(bc.avg_wait_ms, 0.0, "Avg Tm(ms)");
    // l.1624 `LGWR 2462M 1.8 .0M 3002M 2.6 .0M 262K 0.0`
    let lgwr = f("LGWR");
    close(lgwr.write_reqs_per_s, 2.6, "LGWR writes /sec");
    close(lgwr.waits, 262_000.0, "262K");
    // l.1622 `RMAN 7247M .2 .1M 2375M .0 .0M 2771 0.0`: Data Vol/sec .1M = 0.1 MiB/s.
    close(f("RMAN").read_bytes_per_s, 0.1 * 1_048_576.0, ".1M");

    // Wait events: Foreground l.113-155 (35 rows, l.121-155), Background on two pages, l.158-216
    // (51 rows, l.166-216) and l.218-227 (2 rows).
    let n = |s| r.wait_events.iter().filter(|w| w.scope == s).count();
    assert_eq!(
        (n(WaitScope::Foreground), n(WaitScope::Background)),
        (35, 53)
    );
    // l.121 `log file sync 27,042 0 6 0 0.5 1.1`
    let lfs = wait(&r, WaitScope::Foreground, "log file sync");
    assert_eq!((lfs.waits, lfs.total_wait_s), (Some(27_042.0), Some(6.0)));
    assert_eq!(lfs.avg_wait_printed, "0");
    close(lfs.avg_wait_ms, 0.0, "log file sync (ms, printed 0)");
    // Total Wait Time printed in whole seconds (`6`): the precision of Total / Waits.
    assert_eq!(lfs.total_wait_decimals, Some(0));
    // l.125 `db file sequential read 121,513 0 1 0 2.5 .1`
    close(
        wait(&r, WaitScope::Foreground, "db file sequential read").waits,
        121_513.0,
        "db file sequential read waits",
    );
    // l.167 `log file parallel write 61,304 0 10 0 1.2 1.6`
    let lfpw = wait(&r, WaitScope::Background, "log file parallel write");
    assert_eq!(
        (lfpw.waits, lfpw.total_wait_s),
        (Some(61_304.0), Some(10.0))
    );
    // l.226 (second page): `SQL*Net message to client 213,586 ...`
    close(
        wait(&r, WaitScope::Background, "SQL*Net message to client").waits,
        213_586.0,
        "second page",
    );
    // l.216 `wait for unread message on b` cut to 28 characters, restored.
    assert!(r
        .wait_events
        .iter()
        .any(|w| w.event == "wait for unread message on broadcast channel"));
    // l.207, 210, 213: `######` (too wide for the column) → unknown, one warning each; l.405:
    // a second Wait Event Histogram row cut to `Streams AQ: qmn coordinato` (see histogram.rs).
    assert_eq!(r.warnings.len(), 4, "{:?}", r.warnings);
    assert!(r.warnings[..3]
        .iter()
        .all(|w| w.starts_with("section 'Background Wait Events' (line ") && w.contains("######")));
    assert!(r.warnings[3].starts_with("section 'Wait Event Histogram' (line 405)"));
    assert_eq!(
        wait(&r, WaitScope::Background, "smon timer").avg_wait_ms,
        None
    );
}

#[test]
fn corpus_statspack_cut_in_instance_activity_stats_is_truncated_there() {
    let Some(dir) = corpus() else { return };
    let t = String::from_utf8(std::fs::read(dir.join(FILE)).unwrap()).unwrap();
    // Cut after l.1430 (physical reads cache), on the page whose title is on l.1383.
    let cut: String = t.split('\n').take(1430).collect::<Vec<_>>().join("\n");
    match parse_str(&cut).unwrap_err() {
        ParseError::Truncated { at, .. } => {
            assert_eq!(at.section.as_deref(), Some("Instance Activity Stats"));
            assert_eq!(at.line, Some(1383));
        }
        other => panic!("expected Truncated, got {other:?}"),
    }
}
