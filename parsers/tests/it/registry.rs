//! The format registry: every format has one row, detection follows its order, and
//! `docs/formats.md` is its rendering.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sizer_parsers::registry::{self, PARSERS};
use sizer_parsers::{input, Format};

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Every fixture and corpus file, with the ids of every format whose detection matches it (in
/// registry order); files no format reads are left out.
fn matches() -> BTreeMap<String, Vec<&'static str>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    files_under(&root.join("../fixtures"), &mut files);
    let corpus = root.join("../../shared/corpus");
    if corpus.is_dir() {
        files_under(&corpus, &mut files);
    } else {
        crate::common::corpus_absent(&corpus);
    }
    let mut out = BTreeMap::new();
    for f in files {
        let Ok(bytes) = input::read_file(&f) else {
            continue;
        };
        let Ok(decoded) = input::decode(&bytes) else {
            continue;
        };
        let ids: Vec<&str> = PARSERS
            .iter()
            .filter(|p| p.detect(&decoded.text))
            .map(|p| p.info().id)
            .collect();
        if !ids.is_empty() {
            let name = f
                .strip_prefix(root.join(".."))
                .or_else(|_| f.strip_prefix(&corpus))
                .unwrap_or(&f)
                .display()
                .to_string();
            out.insert(name, ids);
        }
    }
    out
}

/// Files two formats' detection accepts, and the format the registry order must choose: an
/// OSWatcher archive holds iostat runs with their banners; a sadf -d file may carry pasted sar
/// text.
const OVERLAPS: &[(&str, &str)] = &[("oswatcher", "iostat_text"), ("sadf_csv", "sar_text")];

#[test]
fn every_file_is_detected_by_one_format_or_a_known_overlap_in_priority_order() {
    let all = matches();
    assert!(all.len() > 60, "only {} files found", all.len());
    for (file, ids) in &all {
        let bytes = input::read_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(file))
            .or_else(|_| {
                input::read_file(
                    &Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("../../shared/corpus")
                        .join(file),
                )
            })
            .unwrap();
        let text = input::decode(&bytes).unwrap().text.into_owned();
        let chosen = sizer_parsers::detect(&text).unwrap();
        assert_eq!(
            chosen.id(),
            ids[0],
            "{file}: detect() is not the first match"
        );
        match ids.as_slice() {
            [_] => {}
            [first, second] => assert!(
                OVERLAPS.contains(&(*first, *second)),
                "{file}: detected by {ids:?}, not a known overlap"
            ),
            _ => panic!("{file}: detected by {ids:?}"),
        }
    }
    // The overlaps are real (each is met by a fixture or corpus file).
    for (winner, loser) in OVERLAPS {
        assert!(
            all.values().any(|ids| ids == &[*winner, *loser]),
            "no file is both {winner} and {loser}"
        );
    }
}

#[test]
fn fixtures_are_detected_as_their_folder_says() {
    let all = matches();
    let want: &[(&str, &str)] = &[
        ("fixtures/aix/", "aix_iostat"),
        ("fixtures/collectors/", "awr_miner"),
        ("fixtures/esxtop/", "esxtop_csv"),
        ("fixtures/hcibench/", "hcibench"),
        ("fixtures/iostat-json/", "iostat_json"),
        ("fixtures/iostat/", "iostat_text"),
        ("fixtures/nmon/", "nmon"),
        ("fixtures/oswatcher/", "oswatcher"),
        ("fixtures/sar/", "sar_text"),
        ("fixtures/awr/awrrpt_19c_small.html", "awr_html"),
        ("fixtures/sadf/j-11-utc-disk-io.json", "sadf_json"),
        ("fixtures/sadf/d-two-versions.csv", "sadf_csv"),
    ];
    for (prefix, id) in want {
        let hits: Vec<_> = all.iter().filter(|(f, _)| f.starts_with(prefix)).collect();
        assert!(!hits.is_empty(), "no fixture under {prefix}");
        for (f, ids) in hits {
            assert_eq!(ids[0], *id, "{f}");
        }
    }
}

#[test]
fn every_format_has_one_row_with_unique_id_and_name() {
    let every = [
        Format::AwrHtml,
        Format::AwrText,
        Format::Statspack,
        Format::AwrMiner,
        Format::DmaArchive,
        Format::IostatText,
        Format::SarText,
        Format::SadfCsv,
        Format::SadfJson,
        Format::IostatJson,
        Format::AixIostat,
        Format::SolarisIostat,
        Format::Nmon,
        Format::OsWatcher,
        Format::EsxtopCsv,
        Format::Hcibench,
        Format::VsanJson,
        Format::VsanSoap,
        Format::PowercliCsv,
        Format::TelegrafVsan,
    ];
    assert_eq!(PARSERS.len(), every.len());
    for f in every {
        let rows: Vec<_> = registry::formats().filter(|i| i.format == f).collect();
        assert_eq!(rows.len(), 1, "{f:?}");
        // The JSON writes the id; the id is the variant's name in snake case (OsWatcher is one
        // word, `oswatcher`).
        assert_eq!(serde_json::to_value(f).unwrap(), rows[0].id, "{f:?}");
        let snake: String = format!("{f:?}")
            .replace("OsWatcher", "Oswatcher")
            .chars()
            .enumerate()
            .flat_map(|(i, c)| {
                let sep = (i > 0 && c.is_ascii_uppercase()).then_some('_');
                sep.into_iter()
                    .chain(std::iter::once(c.to_ascii_lowercase()))
            })
            .collect();
        assert_eq!(rows[0].id, snake, "{f:?}");
        // `registry::parser` indexes PARSERS by the variant: each parser names its own entry.
        assert_eq!(registry::parser(f).info().format, f, "{f:?}");
    }
    for (i, p) in PARSERS.iter().enumerate() {
        assert_eq!(p.info().format as usize, i, "{:?}", p.info().format);
    }
    let mut ids: Vec<_> = registry::formats().map(|i| i.id).collect();
    let mut names: Vec<_> = registry::formats().map(|i| i.name).collect();
    ids.sort_unstable();
    ids.dedup();
    names.sort_unstable();
    names.dedup();
    assert_eq!((ids.len(), names.len()), (every.len(), every.len()));
    assert_eq!(Format::IostatText.id(), "iostat_text");
    assert_eq!(Format::IostatText.name(), "Linux iostat log");
    assert_eq!(Format::OsWatcher.name(), "OSWatcher oswiostat archive");
}

#[test]
fn priority_order_is_todays() {
    let order: Vec<_> = registry::formats().map(|i| i.id).collect();
    let pos = |id: &str| order.iter().position(|x| *x == id).unwrap();
    for (before, after) in [
        ("awr_text", "statspack"),
        ("statspack", "awr_html"),
        ("awr_html", "awr_miner"),
        ("awr_miner", "esxtop_csv"),
        ("hcibench", "sadf_json"),
        ("sadf_json", "iostat_json"),
        ("iostat_json", "sadf_csv"),
        ("sadf_csv", "oswatcher"),
        ("oswatcher", "nmon"),
        ("nmon", "sar_text"),
        ("sar_text", "iostat_text"),
        ("iostat_text", "aix_iostat"),
        ("aix_iostat", "solaris_iostat"),
    ] {
        assert!(
            pos(before) < pos(after),
            "{before} must come before {after}"
        );
    }
    assert_eq!(order[0], "awr_text");
    assert_eq!(order[order.len() - 1], "solaris_iostat");
}

#[test]
fn help_text_lists_every_format_in_order() {
    let text = registry::formats_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), PARSERS.len());
    assert!(
        lines[0].starts_with("  awr_text        AWR text report (interval records): "),
        "{}",
        lines[0]
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("  esxtop_csv      esxtop batch CSV (entity samples): ")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("  iostat_text     Linux iostat log (device reports): ")));
}

/// `docs/formats.md` is the registry's rendering; `SIZER_BLESS=1` rewrites it.
#[test]
fn docs_formats_md_is_the_registry() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/formats.md");
    let want = registry::formats_markdown();
    if std::env::var_os("SIZER_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/formats.md differs from the registry: run SIZER_BLESS=1 cargo test -p sizer-parsers registry"
    );
}

/// Every OS log and virtualisation export streams (a log is never in memory whole); database
/// reports (small documents whose sections refer to each other) are read whole.
#[test]
fn every_log_and_export_format_streams() {
    use sizer_parsers::RecordKind;
    for p in PARSERS {
        let info = p.info();
        assert_eq!(
            p.streams(),
            info.kind != RecordKind::Intervals,
            "{}: streams() = {}",
            info.id,
            p.streams()
        );
    }
}

#[test]
fn a_markdown_note_quoting_awr_tags_is_not_an_awr_report() {
    // fixtures/README.md describes the AWR fixtures: line 24 quotes
    // `<h1 class="awr">WORKLOAD REPOSITORY report for</h1>`, lines 87 and 90 quote `<TABLE>` and
    // `<HTML>` inside prose. No line starts with a tag, so it is not HTML, and no format reads
    // it (before, the AWR HTML parser took it and failed on its "report header").
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("../fixtures/README.md")).unwrap();
    assert!(text.contains("WORKLOAD REPOSITORY report for") && text.contains("<TABLE>"));
    let e = registry::detect(&text).map(|p| p.info().id).unwrap_err();
    assert!(
        e.to_string()
            .contains("expected an Oracle AWR report (HTML or text"),
        "{e}"
    );
    // The same words as markup are an AWR page.
    let html = "SQL> spool awr.html\n<html><head><title>AWR Report</title></head>\n\
                <body><h1>WORKLOAD REPOSITORY report for</h1>\n<table></table></body></html>\n";
    assert_eq!(
        registry::detect(html).map(|p| p.info().id).ok(),
        Some("awr_html")
    );
}
