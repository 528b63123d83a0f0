//! Issue 14, item 1: a value is a finite number or unknown, in every format of the registry.
//!
//! The mutation test takes one real file per format (the corpus where it has one, else a
//! hand-made fixture), writes `NaN`, `inf`, `1e308` and `-1` into a number cell that feeds the
//! sizing (read IOPS, or every value of one sample), and runs the binary on it. The answer must
//! never hold NaN or an infinity, must never size on 0 where the real file sizes on more, and
//! must say what it refused (the cell as printed, in a warning, a skipped line or the failure).
//! Before issue 14 one NaN in an AWR cell gave "Required IOPS NaN", "Sized demand 0 IOPS" and 4 ×
//! 15K HDD for a 1,900-IOPS load.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{corpus_absent, root, sizer, stderr, stdout};

/// Which numbers of the chosen line are mutated.
#[derive(Clone, Copy)]
enum Cells {
    /// The first occurrence of this text, a number as printed.
    Text(&'static str),
    /// The n-th number (from 0) standing alone on the line.
    Nth(usize),
    /// Every number standing alone on the line (one whole sample).
    All,
}

/// One format's case: the file, the line (the `k`-th, from 0, containing `line`), the cells, and
/// whether the format is fixed-width text (the mutated cell is then padded to keep columns).
struct Case {
    format: &'static str,
    file: &'static str,
    line: &'static str,
    k: usize,
    cells: Cells,
    fixed: bool,
}

const C: &str = "../shared/corpus/";

fn cases() -> Vec<Case> {
    let c = |format, file, line, k, cells, fixed| Case {
        format,
        file,
        line,
        k,
        cells,
        fixed,
    };
    use Cells::*;
    vec![
        c(
            "awr_html",
            "awr/pcambell-xydb-11.2.0.4-single.html",
            "physical read total IO requests</td>",
            0,
            Text("1,140.38"),
            false,
        ),
        c(
            "awr_text",
            "awr/jasmin-bpsc-12.2.0.1-aix-single-awrrpt.txt",
            "physical read total IO requests   ",
            0,
            Text("109.4"),
            true,
        ),
        c(
            "statspack",
            "awr/theyanvictor-igt-11.2.0.4-statspack.txt",
            "physical read total IO requests   ",
            0,
            Text("7.4"),
            true,
        ),
        c(
            "awr_miner",
            "collectors/awrminer-ORCL-1333681631-single-383-415.out",
            "       385         61 13/05/09 15:00",
            0,
            // read_iops of snapshot 385.
            Text("2.1"),
            true,
        ),
        c(
            "esxtop_csv",
            "vsan/DERIVED_esxtopd_disk-columns-only.csv",
            "\"04/26/2018",
            1,
            All,
            false,
        ),
        c(
            "vsan_soap",
            "vsan/otel_vcenterreceiver_mock_cluster-vsan.xml",
            "<values xsi:type=\"xsd:string\">",
            0,
            All,
            false,
        ),
        c(
            "vsan_json",
            "fixtures/vsan/query-perf-vijson.json",
            "\"values\": \"1200,1350,1100\"",
            0,
            Nth(1),
            false,
        ),
        c(
            "telegraf_vsan",
            "fixtures/vsan/telegraf-vsan-snake_case.txt",
            "iops_read=1200",
            0,
            Text("1200"),
            false,
        ),
        c(
            "powercli_csv",
            "fixtures/vsan/get-vsanstat-cluster-and-host-en-US.csv",
            "\"VMConsumption.ReadIops\",\"3/13/2024 10:10:00 AM\"",
            0,
            Text("1100"),
            false,
        ),
        c(
            "hcibench",
            "vsan/cleeistaken_Test-Profiles_Curve_README_hcibench_results.md",
            "IOPS          = ",
            0,
            Text("26833.38"),
            false,
        ),
        c(
            "sadf_json",
            "sysstat-tests/tests/expected.sadf-j",
            "\"io\": {\"tps\": 20.85",
            0,
            Text("20.85"),
            false,
        ),
        c(
            "iostat_json",
            "sysstat-tests/tests/expected.iostat-x-p-ALL-JSON",
            "{\"disk_device\": \"sda\", \"r/s\": 6.90",
            0,
            Text("6.90"),
            false,
        ),
        c(
            "sadf_csv",
            "sysstat-tests/tests/expected.sadf-d",
            "SYSSTAT.TEST;31;2019-04-18 13:20:19 UTC;20.85",
            0,
            Text("20.85"),
            false,
        ),
        c(
            "oswatcher",
            "fixtures/oswatcher/db01_iostat_26.11.30.0800.dat",
            "sdb  ",
            0,
            Nth(2),
            true,
        ),
        c(
            "nmon",
            "iostat/nmon-linux-15h-fedora21-g-auto-DG.nmon.txt",
            "DISKREAD,T0005,",
            0,
            All,
            false,
        ),
        c(
            "sar_text",
            "iostat/linux-sar-A-11.6.1-sles15-areq-sz-svctm.txt",
            "dev253-0      6.70",
            0,
            Text("6.70"),
            true,
        ),
        c(
            "iostat_text",
            "iostat/linux-iostat-12.x-ubuntu2010-x-discard-flush.txt",
            "sda ",
            0,
            Nth(0),
            true,
        ),
        c(
            "aix_iostat",
            "iostat/aix-iostat-D-and-plain-EXCERPTS.txt",
            "hdisk8            0.0",
            0,
            Nth(2),
            true,
        ),
        c(
            "solaris_iostat",
            "iostat/solaris-illumos-iostat-xzn-EXCERPTS.txt",
            "c0t17d0",
            0,
            Nth(0),
            true,
        ),
    ]
}

fn path_of(file: &str) -> PathBuf {
    if file.starts_with("fixtures/") {
        root().join(file)
    } else {
        root().join(C).join(file)
    }
}

/// The numbers standing alone on a line: runs of digits and `.`/`,` between separators (space,
/// tab, `,` `;` `"` `>` `<` `=` `(` `)`), as byte ranges.
fn numbers(line: &str) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let sep = |c: u8| {
        matches!(
            c,
            b' ' | b'\t' | b',' | b';' | b'"' | b'>' | b'<' | b'=' | b'(' | b')' | b'\r'
        )
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if (i == 0 || sep(b[i - 1])) && b[i].is_ascii_digit() {
            let s = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            if i == b.len() || sep(b[i]) {
                out.push((s, i));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// `text` with `bad` written into the case's cells.
fn mutate(text: &str, case: &Case, bad: &str) -> String {
    let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
    let idx = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains(case.line))
        .map(|(i, _)| i)
        .nth(case.k)
        .unwrap_or_else(|| panic!("{}: no line {:?} #{}", case.format, case.line, case.k));
    let line = lines[idx].clone();
    let spans: Vec<(usize, usize)> = match case.cells {
        Cells::Text(t) => {
            let a = line
                .find(t)
                .unwrap_or_else(|| panic!("{}: no {t:?}", case.format));
            vec![(a, a + t.len())]
        }
        Cells::Nth(n) => vec![numbers(&line)[n]],
        Cells::All => numbers(&line),
    };
    assert!(!spans.is_empty(), "{}: no number on the line", case.format);
    let mut out = line.clone();
    for &(a, b) in spans.iter().rev() {
        let mut a = a;
        let mut rep = bad.to_string();
        if case.fixed {
            // Keep the columns: pad a short value, or take the blanks before a long one.
            let width = b - a;
            if rep.len() < width {
                rep = format!("{rep:>width$}");
            } else {
                while rep.len() > b - a && a > 0 && out.as_bytes()[a - 1] == b' ' {
                    a -= 1;
                }
                rep = format!("{rep:>w$}", w = b - a);
            }
        }
        out.replace_range(a..b, &rep);
    }
    assert_ne!(out, line);
    lines[idx] = out;
    lines.concat()
}

/// Every subject's sized IOPS and its demand figures, keyed by section and subject.
fn sized(doc: &Value) -> BTreeMap<String, (Option<f64>, BTreeMap<String, f64>)> {
    let mut out = BTreeMap::new();
    for section in ["databases", "hosts", "virtual"] {
        for (i, s) in doc[section].as_array().into_iter().flatten().enumerate() {
            let key = format!("{section}/{i}");
            let iops = s["recommendation"]["sized_iops"].as_f64();
            let demand = s["demand"]
                .as_object()
                .into_iter()
                .flatten()
                .filter_map(|(k, v)| v.as_f64().map(|x| (k.clone(), x)))
                .collect();
            out.insert(key, (iops, demand));
        }
    }
    out
}

/// Non-finite words in the Markdown answer, outside the lines that quote a refused cell.
fn non_finite_words(md: &str) -> Vec<String> {
    md.lines()
        .filter(|l| {
            !(l.contains("treated as unknown")
                || l.contains("not a number")
                || l.contains("report left out")
                || l.contains("not a finite"))
        })
        .flat_map(|l| {
            l.split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| matches!(*w, "NaN" | "nan" | "inf" | "Infinity" | "infinity"))
                .map(|w| format!("{w} in: {l}"))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn run(path: &Path, format: &str) -> (i32, String, String) {
    let p = path.to_str().unwrap();
    let o = sizer(&["analyze", "-f", format, p]);
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{p}: {err}");
    let code = o.status.code().unwrap_or(-1);
    assert!(code == 0 || code == 1, "{p}: exit {code}: {err}");
    (code, stdout(&o), err)
}

/// One real file per registry format, four bad values each (72 runs of the binary).
#[test]
fn nan_inf_huge_and_negative_cells_are_unknown_in_every_format() {
    if !root().join(C).is_dir() {
        corpus_absent(&root().join(C));
        return;
    }
    let dir = std::env::temp_dir().join(format!("values-mutation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut formats: Vec<&str> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    for case in cases() {
        let src = path_of(case.file);
        let text = String::from_utf8(std::fs::read(&src).unwrap()).unwrap();
        let (_, base, _) = run(&src, "json");
        let base: Value = serde_json::from_str(&base).unwrap();
        // The case reads as the format it stands for.
        let format_of = |doc: &Value| -> Vec<String> {
            let mut f = Vec::new();
            for s in ["databases", "hosts", "virtual"] {
                for x in doc[s].as_array().into_iter().flatten() {
                    for src in x["sources"].as_array().into_iter().flatten() {
                        match (&src["format"], src.as_array()) {
                            (Value::String(s), _) => f.push(s.clone()),
                            (_, Some(a)) => {
                                f.extend(a.iter().filter_map(|v| v.as_str().map(String::from)))
                            }
                            _ => {}
                        }
                    }
                    for k in x["source_kinds"].as_array().into_iter().flatten() {
                        f.extend(k[2].as_str().map(String::from));
                    }
                }
            }
            f
        };
        assert!(
            format_of(&base).iter().any(|f| f == case.format),
            "{}: read as {:?}",
            case.file,
            format_of(&base)
        );
        formats.push(case.format);
        let base_sized = sized(&base);
        assert!(
            base_sized.values().any(|(i, _)| i.is_some_and(|i| i > 0.0)),
            "{}: the real file sizes nothing",
            case.file
        );
        for (m, bad) in ["NaN", "inf", "1e308", "-1"].into_iter().enumerate() {
            // Named without the bad value, which must appear only where the answer quotes it.
            let name = Path::new(case.file)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .to_string();
            let path = dir.join(format!("mutant{m}-{name}"));
            std::fs::write(&path, mutate(&text, &case, bad)).unwrap();
            let what = format!("{} ({}) with {bad}", case.format, case.file);
            let (_, md, _) = run(&path, "markdown");
            let words = non_finite_words(&md);
            if !words.is_empty() {
                failures.push(format!("{what}: {}", words.join("; ")));
            }
            let (_, json, _) = run(&path, "json");
            let doc: Value = serde_json::from_str(&json).unwrap();
            let failed = doc["failed"].as_array().is_some_and(|a| !a.is_empty());
            // Said: the refused cell, as printed, is quoted in a warning or a skipped line, or
            // the file is a failure with its reason.
            if !failed && !json.contains(&format!("'{bad}")) {
                failures.push(format!(
                    "{what}: the answer does not say it refused '{bad}'"
                ));
            }
            // Never sized on 0 (nor any demand figure 0) where the real file has more.
            let now = sized(&doc);
            for (key, (iops, demand)) in &base_sized {
                let Some((now_iops, now_demand)) = now.get(key) else {
                    continue;
                };
                if iops.is_some_and(|b| b > 0.0) && *now_iops == Some(0.0) {
                    failures.push(format!("{what}: {key} sized on 0 IOPS"));
                }
                for (k, b) in demand {
                    if *b > 0.0 && now_demand.get(k) == Some(&0.0) {
                        failures.push(format!("{what}: {key} demand {k} = 0 (real file: {b})"));
                    }
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    // Every format of the registry has its case. The DMA archive is a zip (its cells are inside
    // deflate members, not mutable as text): a cell that is no number, or a negative
    // AVG_VALUE, is an error naming the member and line (`parsers/src/dma.rs` tests).
    formats.push("dma_archive");
    let mut all: Vec<&str> = sizer_parsers::registry::formats().map(|f| f.id).collect();
    all.sort_unstable();
    formats.sort_unstable();
    assert_eq!(formats, all);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The headline reproducer: one NaN in the AWR cell of `physical read total IO requests` per
/// Second (1,140.38). The answer is not NaN and not 0: the read rate is unknown, so the
/// required-IOPS formula falls back to its `[required_iops.fallback]` terms, per Second as the
/// report prints them: 'physical read IO requests' 1,132.67 + 'physical write IO requests'
/// 258.16 + 'redo writes' 25.62 = 1,416.45 IOPS, sized × 1.3 = 1,841.385 IOPS; the warning names
/// the file, the section, its line and the statistic.
#[test]
fn one_nan_in_an_awr_cell_is_unknown_and_never_sizes_on_zero() {
    let src = root()
        .join(C)
        .join("awr/pcambell-xydb-11.2.0.4-single.html");
    if !src.is_file() {
        corpus_absent(&src);
        return;
    }
    let text = std::fs::read_to_string(&src).unwrap();
    let dir = std::env::temp_dir().join(format!("values-headline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("xydb-mutated.html");
    std::fs::write(&path, text.replacen(">1,140.38<", ">NaN<", 1)).unwrap();
    let (code, md, _) = run(&path, "markdown");
    let (_, json, _) = run(&path, "json");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 0);
    let words = non_finite_words(&md);
    assert!(words.is_empty(), "{words:?}");
    assert!(md.contains("| Required IOPS "), "{md}");
    assert!(md.contains("1,416.45"), "{md}");
    assert!(md.contains("1,841 IOPS"), "{md}");
    assert!(
        md.contains("xydb-mutated.html: section 'Other Instance Activity Stats' (line 1731), physical read total IO requests: 'NaN' is not a finite number — treated as unknown"),
        "{md}"
    );
    let doc: Value = serde_json::from_str(&json).unwrap();
    let d = &doc["databases"][0];
    assert!(d["intervals"][0]["workload"]["read_iops"]["value"].is_null());
    assert!((d["recommendation"]["sized_iops"].as_f64().unwrap() - 1841.385).abs() < 0.01);
}

/// A decimal-comma AWR report (xydb 11.2.0.4 as an NLS de_DE database prints it: `1.140,38`,
/// `4.111.819`, `60,09 (mins)`) sizes as its C-locale twin: required IOPS 1,140.38 + 295.42 +
/// 25.62 = 1,461.42 (not 1.14 + … read as the C locale would, nor 22× too high), the same
/// recommendation, and a warning that says how the numbers were read.
#[test]
fn decimal_comma_awr_sizes_as_its_c_twin() {
    let src = root()
        .join(C)
        .join("awr/pcambell-xydb-11.2.0.4-single.html");
    if !src.is_file() {
        corpus_absent(&src);
        return;
    }
    let text = std::fs::read_to_string(&src).unwrap();
    let dir = std::env::temp_dir().join(format!("values-locale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let de = dir.join("xydb-de_DE.html");
    std::fs::write(&de, sizer_parsers::num::to_decimal_comma(&text)).unwrap();
    let (_, c_json, _) = run(&src, "json");
    let (code, de_json, _) = run(&de, "json");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 0);
    let (c, d): (Value, Value) = (
        serde_json::from_str(&c_json).unwrap(),
        serde_json::from_str(&de_json).unwrap(),
    );
    let req = |v: &Value| {
        v["databases"][0]["intervals"][0]["workload"]["required_iops"]["value"].as_f64()
    };
    assert_eq!(req(&d), Some(1461.42));
    assert_eq!(req(&d), req(&c));
    let rec = |v: &Value| v["databases"][0]["recommendation"].clone();
    assert_eq!(rec(&d), rec(&c));
    assert!(
        de_json.contains("numbers printed with a decimal comma"),
        "no locale warning"
    );
}
