//! The charts of a Markdown report written with `-o`: which SVG files, where, and the links.
//!
//! Flow: [`chart_files`] takes the finished run, asks the engine for each subject's chart data
//! (`crate::charts`), draws each chart (`report::svg`) and names its file; the binary writes the
//! files into [`charts_dir`] (each atomically, after the report) and the Markdown renderer links
//! them ([`crate::report::markdown_with_charts`]). Without `-o` (stdout) no chart is written,
//! since a relative link would point nowhere.

use std::path::{Path, PathBuf};

use crate::charts::Chart;
use crate::pipeline::Run;
use crate::rules::grade::ReportCardSpec;

/// One chart file.
#[derive(Debug, Clone)]
pub struct ChartFile {
    /// The subject it belongs to: `database:` + a database's `key`, `host:` + a host name, or
    /// `fleet:databases` / `fleet:hosts` (the consolidation's stacked chart).
    pub subject: String,
    /// The chart's title, the link text.
    pub title: String,
    /// File name inside the charts directory (`RECEIPT_DB_Id_1431238624-iops.svg`).
    pub file: String,
    /// The SVG document.
    pub svg: String,
}

/// The directory the charts of `report` go to: `report.md` → `report.charts`, beside it.
pub fn charts_dir(report: &Path) -> PathBuf {
    let stem = report
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report".into());
    report.with_file_name(format!("{stem}.charts"))
}

/// Every chart of the run's databases and hosts, drawn. Host files are named `host-NAME-…`.
///
/// # Errors
/// A drawing error naming the chart.
pub fn chart_files(run: &Run, card: Option<&ReportCardSpec>) -> Result<Vec<ChartFile>, String> {
    let mut out = Vec::new();
    // Each chart drawn and named `<stem>-<chart id>.svg`.
    let mut add = |subject: String, stem: String, charts: Vec<Chart>| -> Result<(), String> {
        for c in charts {
            out.push(ChartFile {
                subject: subject.clone(),
                title: c.title.clone(),
                file: format!("{stem}-{}.svg", c.id),
                svg: super::svg::chart_svg(&c)?,
            });
        }
        Ok(())
    };
    for d in &run.databases {
        let charts = crate::charts::database_charts(d, card);
        add(database_subject(&d.key), file_safe(&d.key), charts)?;
    }
    for (which, c) in [
        ("databases", &run.consolidation.databases),
        ("hosts", &run.consolidation.hosts),
    ] {
        // `fleet-databases-iops.svg`, `fleet-hosts-iops.svg`.
        let charts = c.as_ref().and_then(crate::charts::fleet_chart);
        let stem = format!("fleet-{which}");
        add(format!("fleet:{which}"), stem, charts.into_iter().collect())?;
    }
    for h in &run.hosts {
        let charts = crate::charts::host_charts(h, card);
        add(
            host_subject(&h.host),
            format!("host-{}", file_safe(&h.host)),
            charts,
        )?;
    }
    Ok(out)
}

/// [`ChartFile::subject`] of a database.
pub fn database_subject(key: &str) -> String {
    format!("database:{key}")
}

/// [`ChartFile::subject`] of a host.
pub fn host_subject(host: &str) -> String {
    format!("host:{host}")
}

/// `RECEIPT (DB Id 1431238624)` → `RECEIPT_DB_Id_1431238624`: runs of other characters are one
/// `_`, none at either end.
fn file_safe(key: &str) -> String {
    let mut out = String::new();
    for c in key.chars() {
        match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '.' | '-' => out.push(c),
            _ if !out.is_empty() && !out.ends_with('_') => out.push('_'),
            _ => {}
        }
    }
    out.trim_end_matches('_').to_string()
}
