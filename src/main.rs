//! `sizer`: what storage does this workload need?
//!
//! Exit status: 0 every named input analysed (files skipped inside directories, and databases or
//! hosts of a directory batch that cannot be sized, such as an idle PDB report, are listed as
//! warnings, and make the exit 1 only with `--strict`); 1 some named input could not be analysed
//! or sized (the others are still reported) or an output could not be written; 2 usage or rules-configuration error;
//! 128 + N ended by signal N (`SIGINT` 130, `SIGTERM` 143, `SIGHUP` 129), the temporary output
//! files removed.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;

mod cli_support;

use cli_support::{load_rules, load_rules_limited, names, parse_bytes_arg, parse_capacity};

use sizer::pipeline;
use sizer::settings::{DeviceSelection, DeviceSettings, Settings, SizeOn};
use sizer::{export, output, report};

/// Storage sizing from the performance evidence you already have.
#[derive(Parser, Debug)]
#[command(name = "sizer", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Analyse reports and recommend storage.
    #[command(after_long_help = EXAMPLES)]
    Analyze(Box<AnalyzeArgs>),
    /// List the tier catalogue: every tier's limits, price model, latency class and sources.
    Tiers(TiersArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell or elvish) to stdout.
    Completions(cli_support::CompletionsArgs),
    /// Print the man page (roff) to stdout: `sizer man > sizer.1 && man ./sizer.1`.
    Man,
}

#[derive(clap::Args, Debug)]
struct TiersArgs {
    /// Platforms to list: aws, azure, gcp, onprem or all (repeatable or comma-separated).
    #[arg(
        long,
        value_name = "TARGET",
        value_delimiter = ',',
        default_value = "all"
    )]
    target: Vec<Target>,

    /// Use this catalogue (a tiers TOML file) or rules directory instead of the built-in one.
    #[arg(long, value_name = "FILE|DIR")]
    rules: Option<PathBuf>,

    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = OutputFormat::Markdown)]
    format: OutputFormat,
}

const EXAMPLES: &str = "\
Examples:
  Size one AWR report, Markdown to the terminal:
    $ sizer analyze awrrpt_1_173494_173496.html

  JSON for scripts, written atomically to a file:
    $ sizer analyze --format json -o sizing.json awrrpt.html

  40 % headroom, 2 TiB of data, AWS options only, on an r5.4xlarge:
    $ sizer analyze --headroom 40 --capacity 2TiB --target aws --instance r5.4xlarge awrrpt.html

  Every target (on-premises, AWS, Azure, Google Cloud), costed:
    $ sizer analyze --target all awrrpt.html

  The tier catalogue with its sources:
    $ sizer tiers --target azure

  A week of hourly reports of every instance, sized on the busiest hour, with the
  columnar model for DuckDB:
    $ sizer analyze --size-on max --export fleet.parquet -o fleet.md ./awr-reports/

  Use your own tier catalogue (a copy of rules/tiers.toml) or rules directory:
    $ sizer analyze --rules ./my-tiers.toml awrrpt.html";

#[derive(clap::Args, Debug)]
struct AnalyzeArgs {
    /// Report files (AWR HTML or text, Statspack), OS disk logs (iostat, sar, sadf, nmon,
    /// OSWatcher, AIX/Solaris iostat), vSAN, esxtop and HCIBench exports (gzip'd or not) and
    /// directories (searched recursively). The format of each file is detected from its content;
    /// files in directories that are not readable are skipped and listed. `--help` lists every
    /// input format.
    #[arg(required = true, value_name = "PATH", long_help = files_long_help())]
    files: Vec<PathBuf>,

    /// Statistic of each database's interval series to size on.
    #[arg(long, value_enum, default_value_t = SizeOnArg::P95)]
    size_on: SizeOnArg,

    /// Exit non-zero when any file could not be read, including files skipped in directories,
    /// or any database or host of a directory batch could not be sized.
    #[arg(long)]
    strict: bool,

    /// Follow symbolic links found inside the directories given (as fd and ripgrep). Without
    /// it such links are skipped and listed; links named on the command line are always
    /// followed.
    #[arg(short = 'L', long)]
    follow: bool,

    /// Worker threads for reading reports [default: all cores].
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    jobs: Option<usize>,

    /// Also write the columnar model of every interval (one row per source, instance, interval
    /// and statistic) to FILE: `.parquet` or `.csv` (see docs/export.md). OS disk logs' host
    /// series (one row per host and interval) go to FILE too, or beside it as
    /// `<stem>.hosts.<ext>` when there are AWR reports as well.
    #[arg(long, value_name = "FILE")]
    export: Option<PathBuf>,

    /// Read only share K of N of the inputs (1 ≤ K ≤ N), chosen by a stable hash of each file's
    /// path relative to the path it was found under, so that N machines each read one share and
    /// export it (with --export); `--from-export` merges the shares (docs/scale.md).
    #[arg(long, value_name = "K/N")]
    shard: Option<sizer::shard::Shard>,

    /// The PATHs are Parquet exports (or directories of them) of earlier runs, each with its
    /// `<stem>.reports.parquet`: rebuild the run from their rows and answer as one run over all
    /// their inputs (AWR and Statspack reports only; docs/scale.md).
    #[arg(long, conflicts_with = "shard")]
    from_export: bool,

    /// Read the files listed in LIST (one a line; `-` = stdin) instead of walking the one PATH
    /// given, each keyed as if found under PATH (a scheduler's share of a file list: docs/scale.md).
    #[arg(long, value_name = "LIST", conflicts_with_all = ["shard", "from_export"])]
    files_from: Option<PathBuf>,

    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = OutputFormat::Markdown)]
    format: OutputFormat,

    /// Write the output to FILE (atomically: a temporary file created beside it before the
    /// inputs are read, then renamed into place, and removed on failure or on SIGINT, SIGTERM
    /// or SIGHUP; an existing FILE keeps its permissions) instead of stdout; `-` means stdout.
    /// FILE may not be one of the inputs (same file, hard links too), the --export file, or an
    /// existing device, FIFO or directory.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,

    /// Headroom over the sizing figure, percent [default: 30, from rules/sizing.toml].
    #[arg(long, value_name = "PCT", allow_negative_numbers = true)]
    headroom: Option<f64>,

    /// Data capacity to provision, > 0: a number of GiB (2^30 bytes) or a size with a unit
    /// (`500GiB`, `2TiB`, `800GB`, `1.5TB`; GB/TB are 10^9/10^12 bytes). AWR and Statspack
    /// reports carry no datafile size, so without it drives and volumes are sized for IOPS and
    /// throughput only.
    #[arg(long, visible_alias = "capacity-gib", value_name = "SIZE", value_parser = parse_capacity, allow_negative_numbers = true)]
    capacity: Option<f64>,

    /// A CSV of data sizes, one row per database or host (docs/capacity.md; scripts/capacity.sql
    /// writes it): columns `key` (a DB name, a DB Id, NAME@HOST or a host name) and `size` (as
    /// --capacity), optional `growth_pct_per_year` and `horizon`. Takes precedence over
    /// --capacity; a database or host not in it is sized performance-only and flagged. A bad
    /// row is refused with its line, the rest is used.
    #[arg(long, value_name = "FILE")]
    capacity_file: Option<PathBuf>,

    /// Also size the fleet as one shared layout: the databases' (and hosts') interval series
    /// added per aligned wall-clock interval, sized on their --size-on statistic, as one
    /// on-premises array and one layout per cloud (docs/consolidation.md). Without it the fleet
    /// summary still shows the aligned sum and its saving over the sum of the rows.
    #[arg(long)]
    consolidate: bool,

    /// Grow every --capacity-file size to this horizon (`3y`, `18m`, `730d`) at its row's
    /// growth_pct_per_year (compound); a row's own `horizon` wins.
    #[arg(long, value_name = "DURATION", value_parser = sizer::capacity::parse_years)]
    horizon: Option<f64>,

    /// Where to look: aws, azure, gcp, onprem or all (repeatable or comma-separated) [default:
    /// all].
    #[arg(
        long,
        visible_alias = "platform",
        value_name = "TARGET",
        value_delimiter = ','
    )]
    target: Vec<Target>,

    /// Host type whose storage caps apply (an `[[instance]]` of the catalogue, e.g. r5.4xlarge,
    /// Standard_E32s_v5, n2-standard-32; `sizer tiers` lists them). Only its platform is capped.
    #[arg(long, value_name = "TYPE")]
    instance: Option<String>,

    /// Rules to use instead of the built-in ones: a tiers TOML file (a copy of rules/tiers.toml),
    /// a sizing TOML file (rules/sizing.toml), or a directory holding tiers.toml and
    /// sizing.toml.
    #[arg(long, value_name = "FILE|DIR")]
    rules: Option<PathBuf>,

    /// OS disk logs: devices that make the host total. `disks` (default): whole disks and LUNs
    /// only, since partitions, device-mapper/LVM and md devices are counted again on their
    /// disks; `all`: every device except groups and loop/ram devices; or a comma-separated list
    /// of device names as printed (`sdb,sdc`).
    #[arg(long, value_name = "disks|all|NAMES", default_value = "disks")]
    devices: String,

    /// OS disk logs: how to read numeric dates such as 01/02/24 when the log cannot tell
    /// (month first is assumed and reported otherwise).
    #[arg(long, value_enum, value_name = "ORDER")]
    date_order: Option<DateOrderArg>,

    /// OS disk logs: the iostat logs were taken with `iostat -y`, so their first report is an
    /// interval (by default it holds averages since boot and is left out).
    #[arg(long)]
    iostat_y: bool,

    /// OS disk logs: the host of every log that prints no host name (an iostat log cut from a
    /// terminal without its `Linux … (host) …` banner line, AIX or Solaris iostat). Without it
    /// such a log is named after its file, and the answer says so.
    #[arg(long, value_name = "NAME")]
    host: Option<String>,

    /// Largest input file, on disk: bytes or a size with a unit (`64G`, `500M`; K, M, G, T are
    /// powers of 1024, KB, MB, GB, TB of 1000) [default: 64G]. A larger file fails alone, named
    /// with the cap; the other inputs are still read. Standard input (`-`) is read into memory
    /// under the same cap, and never past 4 GiB.
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes_arg)]
    max_file_size: Option<u64>,

    /// Largest decompressed size of a gzip input, standard input too (the stream stops there; a
    /// gzip bomb is refused at the cap, never buffered) [default: 64G].
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes_arg)]
    max_decompressed_size: Option<u64>,

    /// A run of more inputs than this keeps each report's analysis and kept rows in an unnamed
    /// temporary file in TMPDIR (about 6 KB a report) instead of memory; the output is the same
    /// [default: 1000].
    #[arg(long, value_name = "N")]
    spill_after: Option<usize>,

    /// Largest --rules file (each file of a rules directory) [default: 16M].
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes_arg)]
    max_rules_size: Option<u64>,

    /// vSAN/ESXi exports: also run the SAP HANA-style storage checks (log write latency, log and
    /// data volume throughput) with the KPIs and sources in rules/vsan.toml `[hana]`.
    #[arg(long)]
    hana_checks: bool,
}

/// The long help of `analyze`'s paths: what they may be, then every input format of the parsers'
/// registry in detection order ([`sizer_parsers::registry::formats_text`]), so a format added
/// there is listed here.
fn files_long_help() -> String {
    format!(
        "Report files, OS disk logs and virtualisation exports (gzip'd or not), and directories \
         (searched recursively). The format of each file is detected from its content, never \
         from its name; files in directories that are not readable are skipped and listed.\n\n\
         Input formats, in detection order:\n{}",
        sizer_parsers::registry::formats_text().trim_end()
    )
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum DateOrderArg {
    /// Month first: MM/DD/YY (C and en_US locales).
    Mdy,
    /// Day first: DD/MM/YY (en_GB, de, fr, …).
    Dmy,
    /// Year first: YY/MM/DD (ja, zh).
    Ymd,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum OutputFormat {
    /// Markdown for people.
    Markdown,
    /// HTML for people: one self-contained file (inline CSS and SVG charts, nothing
    /// fetched), printable on A4.
    Html,
    /// JSON for machines (schema: docs/json-schema.md).
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SizeOnArg {
    /// Time-weighted average of the intervals.
    Avg,
    /// Median of the intervals (interpolated between the two middle ones).
    P50,
    /// 95th percentile of the intervals.
    P95,
    /// 99th percentile of the intervals.
    P99,
    /// Busiest interval.
    Max,
    /// Highest peak inside an interval (AWR Miner / DBCSI `read_iops_max + write_iops_max`, an
    /// upper bound of the busiest minute); sources without peaks are sized on max
    MaxInInterval,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// On-premises arrays (NVMe and SAS flash, 15K/10K/7.2K HDD in RAID 10/5/6).
    Onprem,
    /// AWS EBS volumes.
    Aws,
    /// Azure managed disks.
    Azure,
    /// Google Cloud Persistent Disk and Hyperdisk.
    Gcp,
    /// Every platform of the catalogue.
    All,
}

/// Platform ids for `targets`; empty = all.
fn platform_ids(targets: &[Target]) -> Vec<String> {
    if targets.is_empty() || targets.contains(&Target::All) {
        return Vec::new();
    }
    targets
        .iter()
        .map(|t| {
            match t {
                Target::Onprem => "onprem",
                Target::Aws => "aws",
                Target::Azure => "azure",
                Target::Gcp => "gcp",
                Target::All => "all",
            }
            .to_string()
        })
        .collect()
}

/// A name or message as printed on the terminal: control characters escaped
/// ([`report::escape_controls`]), so a file or host name cannot move the cursor or rewrite what
/// was printed.
fn term(s: &str) -> std::borrow::Cow<'_, str> {
    report::escape_controls(s)
}

/// The exit status: one place for its meaning (as fd's `exit_codes.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Exit {
    /// 0: every named input analysed and every output written.
    Success,
    /// 1: some named input could not be analysed or sized (the others are still reported), an
    /// output could not be written, or `--strict` and a file was skipped.
    Failure,
    /// 2: usage or rules-configuration error; nothing was read.
    Usage,
}

impl From<Exit> for std::process::ExitCode {
    fn from(e: Exit) -> Self {
        match e {
            Exit::Success => std::process::ExitCode::SUCCESS,
            Exit::Failure => std::process::ExitCode::from(1),
            Exit::Usage => std::process::ExitCode::from(2),
        }
    }
}

/// The inputs of `--files-from` under the one PATH given.
fn files_from(a: &AnalyzeArgs) -> Result<(Vec<pipeline::Input>, Vec<pipeline::Failure>), String> {
    let [root] = a.files.as_slice() else {
        return Err("give exactly one PATH, the directory the listed files are under".into());
    };
    let list = match a.files_from.as_deref() {
        Some(p) if p == Path::new("-") => std::io::read_to_string(std::io::stdin()),
        Some(p) => std::fs::read_to_string(p),
        None => Ok(String::new()),
    };
    let list = list.map_err(|e| e.to_string())?;
    Ok(sizer::shard::inputs_from_list(root, &list))
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    cli_support::remove_temporaries_on_signal();
    match cli.command {
        Command::Analyze(a) => analyze_cmd(*a),
        Command::Tiers(t) => tiers_cmd(t),
        Command::Completions(c) => cli_support::completions::<Cli>(c.shell),
        Command::Man => cli_support::man::<Cli>(),
    }
    .into()
}

fn tiers_cmd(t: TiersArgs) -> Exit {
    let rules = match load_rules(t.rules.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("sizer: rules: {e}");
            return Exit::Usage;
        }
    };
    let ids = platform_ids(&t.target);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let r = match t.format {
        OutputFormat::Markdown => report::tiers_markdown(&rules, &ids, &mut out),
        OutputFormat::Json => report::tiers_json(&rules, &ids, &mut out),
        OutputFormat::Html => {
            let mut md = Vec::new();
            report::tiers_markdown(&rules, &ids, &mut md).and_then(|()| {
                let md = String::from_utf8_lossy(&md);
                report::html_page(&md, "sizer: tier catalogue", &[], &mut out)
            })
        }
    };
    match r.and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("sizer: writing to stdout: {e}");
            Exit::Failure
        }
        _ => Exit::Success,
    }
}

fn analyze_cmd(mut a: AnalyzeArgs) -> Exit {
    if let Some(v) = a.headroom {
        if !v.is_finite() || v < 0.0 {
            eprintln!("sizer: --headroom must be a number ≥ 0, got {v}");
            return Exit::Usage;
        }
    }
    if a.output.as_deref() == Some(Path::new("-")) {
        a.output = None;
    }
    let rules = load_rules_limited(
        a.rules.as_deref(),
        a.max_rules_size
            .unwrap_or(sizer::rules::DEFAULT_MAX_RULES_SIZE),
    );
    let rules = match rules {
        Ok(r) => r,
        Err(e) => {
            eprintln!("sizer: rules: {e}");
            return Exit::Usage;
        }
    };
    if let Some(id) = &a.instance {
        if !rules
            .catalog()
            .instances
            .iter()
            .any(|i| i.id.eq_ignore_ascii_case(id.trim()))
        {
            let known: Vec<&str> = rules
                .catalog()
                .instances
                .iter()
                .map(|i| i.id.as_str())
                .collect();
            eprintln!(
                "sizer: --instance {id}: not in the catalogue (known: {}; add an [[instance]] to a --rules copy)",
                known.join(", ")
            );
            return Exit::Usage;
        }
    }
    let capacity_file = match &a.capacity_file {
        Some(p) => match sizer::capacity::CapacityFile::read(p) {
            Ok(f) => Some(std::sync::Arc::new(f)),
            Err(e) => {
                eprintln!("sizer: {}", term(&e.to_string()));
                return Exit::Usage;
            }
        },
        None => None,
    };
    let settings = Settings {
        headroom_pct: a.headroom,
        capacity_gib: a.capacity,
        capacity_file,
        horizon_years: a.horizon,
        platforms: platform_ids(&a.target),
        instance: a.instance.clone(),
        ..Settings::default()
    };
    if let Some(e) = &a.export {
        if !matches!(
            e.extension().and_then(|x| x.to_str()),
            Some("parquet") | Some("csv")
        ) {
            eprintln!(
                "sizer: --export {}: expected a file name ending in .parquet or .csv",
                e.display()
            );
            return Exit::Usage;
        }
    }
    if a.jobs == Some(0) {
        eprintln!("sizer: -j must be at least 1");
        return Exit::Usage;
    }
    let selection = match DeviceSelection::parse(&a.devices) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("sizer: --devices {}: {e}", a.devices);
            return Exit::Usage;
        }
    };
    let settings = Settings {
        devices: DeviceSettings {
            selection,
            date_order: a.date_order.map(|o| match o {
                DateOrderArg::Mdy => sizer_parsers::disk::DateOrder::Mdy,
                DateOrderArg::Dmy => sizer_parsers::disk::DateOrder::Dmy,
                DateOrderArg::Ymd => sizer_parsers::disk::DateOrder::Ymd,
            }),
            iostat_y: a.iostat_y,
            host: a.host.clone().filter(|h| !h.trim().is_empty()),
        },
        hana_checks: a.hana_checks,
        consolidate: a.consolidate,
        limits: sizer_parsers::input::Limits {
            max_file_size: a
                .max_file_size
                .unwrap_or(sizer_parsers::input::Limits::DEFAULT_FILE_SIZE),
            max_decompressed_size: a
                .max_decompressed_size
                .unwrap_or(sizer_parsers::input::Limits::DEFAULT_DECOMPRESSED_SIZE),
        },
        spill_after: a.spill_after,
        size_on: match a.size_on {
            SizeOnArg::Avg => SizeOn::Avg,
            SizeOnArg::P50 => SizeOn::P50,
            SizeOnArg::P95 => SizeOn::P95,
            SizeOnArg::P99 => SizeOn::P99,
            SizeOnArg::Max => SizeOn::Max,
            SizeOnArg::MaxInInterval => SizeOn::MaxInInterval,
        },
        // Progress only for a person watching: stderr a terminal, and not a CI job (some CI
        // runners give jobs a pseudo-terminal, and their logs keep every redraw).
        progress: std::io::stderr().is_terminal() && std::env::var_os("CI").is_none(),
        ..settings
    };
    let (inputs, failures) = match (a.from_export, a.shard) {
        _ if a.files_from.is_some() => match files_from(&a) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("sizer: --files-from: {}", term(&e));
                return Exit::Usage;
            }
        },
        (true, _) => (Vec::new(), Vec::new()),
        (false, None) => pipeline::discover_with(&a.files, a.follow),
        (false, Some(s)) => {
            let (i, f) = pipeline::discover_with(&a.files, a.follow);
            s.select(&a.files, i, f)
        }
    };
    // A share of the inputs (`--shard`, `--files-from`) may hold none, or no report: it still
    // writes its report and export, so the merge counts what it skipped.
    let share = a.shard.is_some() || a.files_from.is_some();
    // Files named on the command line (not found in a directory): a subject of theirs that
    // cannot be sized is a failure; one found in a directory batch is a warning.
    let explicit: std::collections::HashSet<String> = inputs
        .iter()
        .filter(|i| i.explicit)
        .map(|i| i.path.display().to_string())
        .collect();
    if inputs.is_empty() && failures.is_empty() && !a.from_export && !share {
        eprintln!("sizer: no files found in {}", term(&names(&a.files)));
        return Exit::Failure;
    }
    // Outputs never destroy: refuse, before anything is read, an output that is one of the
    // inputs (including files found inside the directories given, and hard links to them) or
    // another output, or that exists and is not a regular file.
    // Standard input is compared as the file behind it (`sizer analyze - < a.html -o a.html`).
    let input_paths: Vec<PathBuf> = inputs
        .iter()
        .map(|i| match i.kind {
            pipeline::InputKind::Stdin => PathBuf::from("/dev/stdin"),
            _ => i.path.clone(),
        })
        .chain(a.capacity_file.clone())
        // A merge's inputs are the exports and their reports tables.
        .chain(
            export::merge::export_files(if a.from_export { &a.files } else { &[] })
                .unwrap_or_default()
                .into_iter()
                .flat_map(|x| [export::reports_path(&x), x]),
        )
        .collect();
    let mut outputs: Vec<(String, PathBuf)> = Vec::new();
    if let Some(o) = &a.output {
        outputs.push(("-o".into(), o.clone()));
    }
    if let Some(e) = &a.export {
        outputs.push(("--export".into(), e.clone()));
        outputs.push(("--export (host series)".into(), export::hosts_path(e)));
        outputs.push(("--export (reports)".into(), export::reports_path(e)));
        outputs.push(("--export (results)".into(), export::results_path(e)));
    }
    if let Err(e) = output::check_outputs(&input_paths, &outputs) {
        eprintln!("sizer: {}", term(&e.to_string()));
        return Exit::Usage;
    }
    // The report's temporary file is created now, before anything is read: an output that
    // cannot be written fails at once, not after the inputs; until it is committed a signal or
    // a failure removes it (`output::AtomicFile`).
    let mut report_file = match &a.output {
        Some(path) => match output::AtomicFile::create(path) {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("sizer: {}", term(&e.to_string()));
                return Exit::Failure;
            }
        },
        None => None,
    };
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sizer: cannot start worker threads: {e}");
            return Exit::Failure;
        }
    };
    // The export streams each report's rows into its temporary file as the report is read
    // (`export::ModelExport`); one that cannot start fails after the report is written, as an
    // export that cannot be written always has.
    let mut model_export = a.export.as_deref().map(export::ModelExport::create);
    if let Some(Ok(x)) = &mut model_export {
        x.set_roots(&a.files);
    }
    let sink = match &mut model_export {
        Some(Ok(x)) => Some(x as &mut dyn pipeline::ModelSink),
        _ => None,
    };
    let run = pool.install(|| match a.from_export {
        false => pipeline::run_inputs_into(inputs, failures, &rules, &settings, sink)
            .map(|r| (r, None))
            .map_err(|e| e.to_string()),
        true => export::merge::run(&a.files, &rules, &settings, sink)
            .map(|(r, keys)| (r, Some(keys)))
            .map_err(|e| e.to_string()),
    });
    let run = match run {
        Ok((r, keys)) => {
            if let (Some(Ok(x)), Some(k)) = (&mut model_export, keys) {
                x.set_keys(k);
            }
            r
        }
        Err(e) => {
            eprintln!("sizer: {}", term(&e));
            return Exit::Failure;
        }
    };
    for f in &run.failures {
        eprintln!("sizer: {}: {}", term(&f.file), term(&f.error));
    }
    if let Some(p) = &a.capacity_file {
        for r in &run.capacity_rows {
            eprintln!(
                "sizer: {} line {}: {}",
                term(&p.display().to_string()),
                r.line,
                term(&r.reason)
            );
        }
    }
    if !run.skipped.is_empty() {
        eprintln!(
            "sizer: skipped {} file(s) that are not readable reports (listed in the output)",
            run.skipped.len()
        );
    }
    if run.analyses.is_empty() && run.hosts.is_empty() && run.virtual_.is_empty() && !share {
        match &a.output {
            Some(out) => {
                for f in &run.skipped {
                    eprintln!("sizer: {}: skipped: {}", term(&f.file), term(&f.reason));
                }
                eprintln!(
                    "sizer: nothing analysed; {} not written",
                    term(&out.display().to_string())
                );
            }
            // stdout still gets the lists of what was skipped or failed, and scripts a JSON
            // document with every input under `failed`/`skipped`.
            None => {
                let mut out = std::io::stdout().lock();
                let _ = match a.format {
                    OutputFormat::Json => report::json(&run, &mut out),
                    OutputFormat::Markdown | OutputFormat::Html => report::markdown(&run, &mut out),
                };
            }
        }
        return Exit::Failure;
    }
    // With -o, a Markdown report gets its charts as SVG files beside it, linked.
    let charts = match (&a.output, a.format) {
        (Some(path), OutputFormat::Markdown) => {
            match cli_support::charts_for(&run, &rules, path, &input_paths) {
                Ok(c) => Some(c),
                Err(e) => {
                    eprintln!("sizer: {}", term(&e));
                    return Exit::Failure;
                }
            }
        }
        _ => None,
    };
    // HTML carries its charts inline, to a file or to stdout.
    let inline = match a.format {
        OutputFormat::Html => {
            match report::chart_files::chart_files(&run, rules.sizing().report_card.as_ref()) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("sizer: {}", term(&e));
                    return Exit::Failure;
                }
            }
        }
        _ => Vec::new(),
    };
    let render = |out: &mut dyn Write| match (a.format, &charts) {
        (OutputFormat::Markdown, Some(c)) => {
            report::markdown_with_charts(&run, out, &c.dir_name, &c.files)
        }
        (OutputFormat::Markdown, None) => report::markdown(&run, out),
        (OutputFormat::Html, _) => report::html(&run, out, &inline),
        (OutputFormat::Json, _) => report::json(&run, out),
    };
    // Rendered straight into the destination: a temporary file renamed into place for -o, or
    // stdout (a closed pipe, as with `| head`, is not an error).
    let written = match (&a.output, report_file.take()) {
        (Some(path), Some(mut f)) => render(f.writer())
            .map_err(|source| output::OutputError::Write {
                path: path.clone(),
                source,
            })
            .and_then(|()| f.commit())
            .map_err(anyhow::Error::from),
        _ => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            match render(&mut out).and_then(|_| out.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                r => r.map_err(|e| anyhow::anyhow!("writing to stdout: {e}")),
            }
        }
    };
    if let Err(e) = written {
        eprintln!("sizer: {}", term(&e.to_string()));
        return Exit::Failure;
    }
    if let Some(path) = &a.output {
        eprintln!("sizer: wrote {}", term(&path.display().to_string()));
    }
    if let Some(c) = &charts {
        match c.write() {
            Ok(Some(dir)) => eprintln!(
                "sizer: wrote {} chart(s) in {}",
                c.files.len(),
                term(&dir.display().to_string())
            ),
            Ok(None) => {}
            Err(e) => {
                eprintln!("sizer: {}", term(&e.to_string()));
                return Exit::Failure;
            }
        }
    }
    // The export follows the report, so a report that cannot be written leaves no export either.
    if let Some(x) = model_export {
        match x.and_then(|x| x.finish(&run)) {
            Ok(paths) => {
                for p in paths {
                    eprintln!("sizer: wrote {}", term(&p.display().to_string()));
                }
            }
            Err(e) => {
                eprintln!("sizer: {}", term(&e.to_string()));
                return Exit::Failure;
            }
        }
    }
    // Each subject that could not be sized: its name, its files and the reason (the subject's
    // `cannot_size` warning), one line each. In a directory batch (none of its files named on
    // the command line) it is a warning, as a skipped file is: exit 0 unless `--strict`.
    let not_sized = sizer::fleet::not_sized(&run);
    let mut named_not_sized = false;
    for n in &not_sized {
        // A subject named after its one file (a vSAN export without an origin) is not named
        // twice.
        let files = match n.files.as_slice() {
            [f] if n.subject.contains(f.as_str()) => String::new(),
            _ => format!(" ({})", n.files.join(", ")),
        };
        let named = n.files.iter().any(|f| explicit.contains(f));
        named_not_sized |= named;
        eprintln!(
            "sizer: {}could not size {}{}: {}",
            if named { "" } else { "warning: " },
            term(&n.subject),
            term(&files),
            term(&n.reason)
        );
    }
    if named_not_sized {
        return Exit::Failure;
    }
    let strict_failure = a.strict && (!run.skipped.is_empty() || !not_sized.is_empty());
    // A refused or unmatched --capacity-file row is a failure of that row (the run went on).
    if run.failures.is_empty() && run.capacity_rows.is_empty() && !strict_failure {
        Exit::Success
    } else {
        Exit::Failure
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn capacity_sizes_with_and_without_units() {
        assert_eq!(parse_capacity("2048"), Ok(2048.0));
        assert_eq!(parse_capacity("2TiB"), Ok(2048.0));
        assert_eq!(parse_capacity("0.5 TiB"), Ok(512.0));
        assert_eq!(parse_capacity("1e3"), Ok(1000.0));
        assert_eq!(parse_capacity("1e3GiB"), Ok(1000.0));
        let gb = parse_capacity("500GB").unwrap();
        assert!((gb - 500e9 / 1_073_741_824.0).abs() < 1e-9);
        assert!(parse_capacity("0").unwrap_err().contains("> 0"));
        assert!(parse_capacity("2 furlongs")
            .unwrap_err()
            .contains("unknown unit \"furlongs\""));
        assert!(parse_capacity("TiB").is_err());
    }
}
