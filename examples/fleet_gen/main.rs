//! Writes a synthetic fleet of AWR reports for `benches/fleet.sh`: N reports of M databases,
//! each database with its own DB Id and DB Name, consecutive snapshot ids and hourly times, the
//! instances of a RAC database sharing them (the rules are in `gen.rs`).
//!
//! `cargo run --release --example fleet_gen -- --reports N --databases M [--gzip]
//!  [--rac-instances K] --out DIR TEMPLATE.html...`
//!
//! Templates are AWR HTML instance reports (`awrrpt`); the benchmark uses hourly corpus reports
//! (`../shared/corpus/awr`), the test the project's fixtures. Prints one line: reports,
//! databases, RAC databases, intervals per database (least and most) and bytes written.
mod gen;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut plan = gen::Plan {
        databases: 500,
        reports: 1000,
        rac_instances: 2,
        gzip: false,
        start: chrono::NaiveDate::from_ymd_opt(2026, 1, 5)
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .expect("a valid date"),
        first_snap: 1001,
    };
    let mut out: Option<PathBuf> = None;
    let mut templates = Vec::new();
    let mut args = std::env::args().skip(1);
    let usage = "usage: fleet_gen --reports N --databases M [--gzip] [--rac-instances K] --out DIR TEMPLATE.html...";
    while let Some(a) = args.next() {
        let mut num = |what: &str| -> Result<usize, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or(format!("{what} needs a number\n{usage}"))
        };
        let r = match a.as_str() {
            "--reports" => num("--reports").map(|n| plan.reports = n),
            "--databases" => num("--databases").map(|n| plan.databases = n),
            "--rac-instances" => num("--rac-instances").map(|n| plan.rac_instances = n as u32),
            "--gzip" => {
                plan.gzip = true;
                Ok(())
            }
            "--out" => {
                out = args.next().map(PathBuf::from);
                Ok(())
            }
            t if !t.starts_with("--") => gen::Template::load(t.as_ref()).map(|t| templates.push(t)),
            other => Err(format!("unknown option {other}\n{usage}")),
        };
        if let Err(e) = r {
            eprintln!("fleet_gen: {e}");
            return ExitCode::from(2);
        }
    }
    let Some(out) = out.filter(|_| !templates.is_empty()) else {
        eprintln!("fleet_gen: --out and at least one template are needed\n{usage}");
        return ExitCode::from(2);
    };
    match gen::generate(&templates, &plan, &out) {
        Ok(s) => {
            let iv = s.databases.iter().map(|d| d.3);
            println!(
                "{} reports, {} databases ({} RAC of {} instances), {}-{} intervals per database, {:.1} MB written to {}",
                s.reports,
                s.databases.len(),
                s.databases.iter().filter(|d| d.2 > 1).count(),
                plan.rac_instances,
                iv.clone().min().unwrap_or(0),
                iv.max().unwrap_or(0),
                s.bytes as f64 / 1e6,
                out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fleet_gen: {}: {e}", out.display());
            ExitCode::from(1)
        }
    }
}
