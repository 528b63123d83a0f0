//! The `Exadata` section of a database: single-block reads from the cell waits, Smart Scan on
//! its own line, and the off-Exadata estimate beside the as-measured figure (all computed in
//! `crate::metrics::exadata`).

use std::io::{self, Write};

use comfy_table::Cell;

use crate::metrics::exadata::{ExadataFigures, SmallReadBasis};
use crate::metrics::Figure;
use crate::report::fmt::{cell_text, figure_text, right, table};

/// Writes the section; nothing when the interval is not of an Exadata database.
pub(crate) fn write_exadata(
    out: &mut dyn Write,
    x: Option<&ExadataFigures>,
    basis: SmallReadBasis,
) -> io::Result<()> {
    let Some(x) = x else {
        return Ok(());
    };
    writeln!(out, "## Exadata\n")?;
    writeln!(
        out,
        "On Exadata, 'physical read total IO requests' counts Smart Scan and flash-cache-optimized requests (awr-notes §2, §3.7). Small reads: {basis}. Smart Scan is shown on its own line.\n"
    )?;
    let s = &x.smart_scan;
    let mut t = table(&["Figure", "Value", "Unit", "From"]);
    let mut rows: Vec<(&str, &Figure)> = vec![
        ("Single-block reads", &x.single_block_reads_per_s),
        (
            "Single-block read waits counted",
            &x.single_block_read_waits,
        ),
        (
            "Other read requests (multiblock, Smart Scan, control file …)",
            &s.other_read_iops,
        ),
        ("Smart Scan waits", &s.waits_per_s),
        ("Smart Scan average wait", &s.avg_wait_ms),
        ("Smart Scan wait time", &s.wait_s),
        ("Smart Scan share of DB time", &s.db_time_pct),
        ("Smart Scan bytes eligible for offload", &s.eligible_mb_s),
        (
            "Smart Scan bytes returned to the database",
            &s.returned_mb_s,
        ),
    ];
    if let Some(o) = &x.off_exadata {
        rows.push(("Required IOPS on Exadata", &o.required_iops));
        rows.push(("Off-Exadata estimate", &o.estimated_iops));
    }
    for (name, m) in rows {
        let from = match m.unknown_reason() {
            Some(why) => format!("unknown: {why}"),
            None => m.from.to_string(),
        };
        t.add_row(vec![
            Cell::new(name),
            Cell::new(figure_text(m)),
            Cell::new(m.unit),
            Cell::new(cell_text(&from)),
        ]);
    }
    right(&mut t, &[1]);
    writeln!(out, "{t}\n")?;
    if let Some(o) = &x.off_exadata {
        writeln!(out, "- Off Exadata: {o}.")?;
        writeln!(out, "- Factor: {} ({}).\n", o.why, o.source)?;
    }
    Ok(())
}
