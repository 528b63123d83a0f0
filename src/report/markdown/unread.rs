//! The end of a Markdown report: files not analysed, files skipped and duplicates.

use std::io::{self, Write};

use crate::pipeline::Run;
use crate::report::fmt::escape_controls as esc;

pub(crate) fn write_unread(out: &mut dyn Write, run: &Run) -> io::Result<()> {
    if !run.failures.is_empty() {
        writeln!(out, "# Not analysed\n")?;
        for f in &run.failures {
            writeln!(out, "- `{}`: {}", esc(&f.file), esc(&f.error))?;
        }
        writeln!(out)?;
    }
    if !run.skipped.is_empty() {
        writeln!(
            out,
            "# Skipped: not reports ({} files)\n",
            run.skipped.len()
        )?;
        // Grouped by reason, so the few that matter (AWR text, Statspack) are not buried.
        let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
        for f in &run.skipped {
            match groups.iter_mut().find(|(r, _)| *r == f.reason) {
                Some((_, files)) => files.push(&f.file),
                None => groups.push((&f.reason, vec![&f.file])),
            }
        }
        groups.sort_by_key(|(_, files)| files.len());
        for (reason, files) in groups {
            writeln!(out, "- {} ({} file(s)):", esc(reason), files.len())?;
            for f in files.iter().take(10) {
                writeln!(out, "  - `{}`", esc(f))?;
            }
            if files.len() > 10 {
                writeln!(out, "  - … and {} more", files.len() - 10)?;
            }
        }
        writeln!(out)?;
    }
    if !run.duplicates.is_empty() {
        writeln!(out, "# Duplicates (counted once)\n")?;
        for f in &run.duplicates {
            if f.differs {
                writeln!(
                    out,
                    "- `{}`: same database, instance and snapshots as `{}` but **different figures** (an edited copy, or a cloned database that kept its DB Id); `{}` was used",
                    esc(&f.file), esc(&f.duplicate_of), esc(&f.duplicate_of)
                )?;
            } else {
                writeln!(
                    out,
                    "- `{}`: same database, instance, snapshots and figures as `{}`",
                    esc(&f.file),
                    esc(&f.duplicate_of)
                )?;
            }
        }
        writeln!(out)?;
    }
    Ok(())
}
