//! The Markdown renderer: [`markdown`] writes a run as one document, section by section.
//!
//! Order: the database fleet summary (more than one database), each database, the hosts summary
//! (more than one host), each host, each vSAN cluster or ESXi host, then the files not read.
//! Each subject has its own module; `recommendation` is shared by all three.

use std::io::{self, Write};

use crate::pipeline::Run;
use crate::report::chart_files::ChartFile;
use crate::report::fmt::EscapeControls;

mod database;
mod exadata;
mod fleet;
mod fleet_cross;
mod host;
mod recommendation;
mod unread;
mod virtual_cluster;

use database::write_database;
use fleet::{write_fleet, write_host_fleet};
use host::write_host;
use unread::write_unread;
use virtual_cluster::write_virtual;

/// Renders the run as Markdown: a fleet summary (when there is more than one database), one
/// section per database, then the files not analysed, skipped and duplicated.
///
/// Everything is written through an escaping writer: a control character in a file, host or
/// database name (ESC, CR, BEL, …) is printed escaped (`\u{1b}`), never raw; file names are
/// also escaped field by field, so a line feed in one cannot start a new line.
///
/// # Errors
/// Only I/O errors of `out`.
pub fn markdown(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    write_markdown(run, &mut EscapeControls(out), None)
}

/// [`markdown`], with each database's and host's charts linked under its section (`## Charts`): `dir` is
/// the charts directory's name relative to the report, `files` the charts written there
/// ([`crate::report::chart_files`]).
///
/// # Errors
/// Only I/O errors of `out`.
pub fn markdown_with_charts(
    run: &Run,
    out: &mut dyn Write,
    dir: &str,
    files: &[ChartFile],
) -> io::Result<()> {
    write_markdown(run, &mut EscapeControls(out), Some((dir, files)))
}

fn write_charts(out: &mut dyn Write, dir: &str, files: &[&ChartFile]) -> io::Result<()> {
    if files.is_empty() {
        return Ok(());
    }
    writeln!(out, "## Charts\n")?;
    for f in files {
        writeln!(out, "![{}]({}/{})\n", f.title, dir, f.file)?;
    }
    Ok(())
}

fn write_markdown(
    run: &Run,
    out: &mut dyn Write,
    charts: Option<(&str, &[ChartFile])>,
) -> io::Result<()> {
    if run.databases.len() > 1 {
        if let Some(f) = crate::fleet::databases(run) {
            write_fleet(out, &f)?;
        }
        if let Some((dir, files)) = charts {
            let mine: Vec<&ChartFile> = files
                .iter()
                .filter(|f| f.subject == "fleet:databases")
                .collect();
            write_charts(out, dir, &mine)?;
        }
    }
    for (i, d) in run.databases.iter().enumerate() {
        if i > 0 || run.databases.len() > 1 {
            writeln!(out, "---\n")?;
        }
        write_database(out, d)?;
        if let Some((dir, files)) = charts {
            let me = crate::report::chart_files::database_subject(&d.key);
            let mine: Vec<&ChartFile> = files.iter().filter(|f| f.subject == me).collect();
            write_charts(out, dir, &mine)?;
        }
    }
    if run.hosts.len() > 1 {
        if !run.databases.is_empty() {
            writeln!(out, "---\n")?;
        }
        if let Some(f) = crate::fleet::hosts(run) {
            write_host_fleet(out, &f)?;
        }
        if let Some((dir, files)) = charts {
            let mine: Vec<&ChartFile> = files
                .iter()
                .filter(|f| f.subject == "fleet:hosts")
                .collect();
            write_charts(out, dir, &mine)?;
        }
    }
    for (i, h) in run.hosts.iter().enumerate() {
        if i > 0 || !run.databases.is_empty() || run.hosts.len() > 1 {
            writeln!(out, "---\n")?;
        }
        write_host(out, h)?;
        if let Some((dir, files)) = charts {
            let me = crate::report::chart_files::host_subject(&h.host);
            let mine: Vec<&ChartFile> = files.iter().filter(|f| f.subject == me).collect();
            write_charts(out, dir, &mine)?;
        }
    }
    for (i, v) in run.virtual_.iter().enumerate() {
        if i > 0 || !run.databases.is_empty() || !run.hosts.is_empty() {
            writeln!(out, "---\n")?;
        }
        write_virtual(out, v)?;
    }
    write_unread(out, run)
}
