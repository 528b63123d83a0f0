//! The end of a Markdown report: subjects not sized, files not analysed, files skipped and
//! duplicates.

use std::io::{self, Write};

use crate::pipeline::Run;
use crate::report::fmt::escape_controls as esc;

pub(crate) fn write_unread(out: &mut dyn Write, run: &Run) -> io::Result<()> {
    let not_sized = crate::fleet::not_sized(run);
    if !not_sized.is_empty() {
        writeln!(out, "# Not sized\n")?;
        writeln!(
            out,
            "Warnings: read, but no sizing figure (in a directory batch the exit status stays 0 unless `--strict`; a file named on the command line makes it 1).\n"
        )?;
        for n in &not_sized {
            // A subject named after its one file (a vSAN export without an origin) is not
            // named twice.
            let files = match n.files.as_slice() {
                [f] if n.subject.contains(f.as_str()) => String::new(),
                fs => format!(
                    " ({})",
                    fs.iter()
                        .map(|f| format!("`{}`", esc(f)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            writeln!(
                out,
                "- {} {}{files}: {}",
                n.kind,
                esc(&n.subject),
                esc(&n.reason)
            )?;
        }
        writeln!(out)?;
    }
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
