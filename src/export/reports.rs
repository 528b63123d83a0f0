//! The reports table of an export (`<stem>.reports.<ext>`): what each report says of itself
//! beyond its statistic rows, so that `--from-export` rebuilds exactly the run's databases
//! (`docs/export.md`, Reports table).
//!
//! One row per report and instance (a RAC global report has one per instance it covers; a
//! report that names no instance has one row, `instance_index` null), in run order, plus one row
//! per file the run did not analyse as a report: `status` is `report`, `duplicate` (a report of
//! an interval already covered: `duplicate_of`, `differs`), `skipped`, `failed` (with `reason`)
//! or `os_log` / `virtual` (inputs a merge cannot rebuild: their rows are not exported). Every
//! file carries its [`InputKey`] (`root`, `relative`), which orders a merge and chooses its share
//! ([`crate::shard`]).

use chrono::NaiveDateTime;
use polars::prelude::*;
use sizer_parsers::awr::{DbInfo, InstanceInfo, ReportKind, Snapshots};

use crate::pipeline::Run;
use crate::shard::InputKey;
use crate::subject::awr::ReportInfo;

/// What one row of the reports table is about (`status`).
#[derive(Debug, Clone)]
pub(crate) enum Status {
    /// An analysed report: its identity and header.
    Report(Box<ReportInfo>),
    /// A report of an interval already covered by `duplicate_of`.
    Duplicate {
        /// The file kept.
        duplicate_of: String,
        /// The two disagree on their IO totals.
        differs: bool,
    },
    /// A file in a directory that is not a readable report.
    Skipped(String),
    /// A file named on the command line that could not be read.
    Failed(String),
    /// An OS disk log or a virtualisation export (kind `os_log` or `virtual`): not rebuildable.
    NotRebuilt(&'static str),
}

/// One file of the reports table.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// Path as given or found.
    pub(crate) source: String,
    /// Where it sits among the paths given.
    pub(crate) key: InputKey,
    /// What it is.
    pub(crate) status: Status,
}

/// The entries of `run`, keyed among `roots`: reports in run order, then duplicates, skipped
/// and failed files, then OS logs and exports.
pub(crate) fn entries(run: &Run, roots: &[std::path::PathBuf]) -> Vec<Entry> {
    let key = |f: &str| InputKey::of(roots, std::path::Path::new(f));
    let mut out: Vec<Entry> = Vec::new();
    for (file, info) in &run.infos {
        out.push(Entry {
            source: file.clone(),
            key: key(file),
            status: Status::Report(Box::new(info.clone())),
        });
    }
    for d in &run.duplicates {
        out.push(Entry {
            source: d.file.clone(),
            key: key(&d.file),
            status: Status::Duplicate {
                duplicate_of: d.duplicate_of.clone(),
                differs: d.differs,
            },
        });
    }
    for s in &run.skipped {
        out.push(Entry {
            source: s.file.clone(),
            key: key(&s.file),
            status: Status::Skipped(s.reason.clone()),
        });
    }
    for f in &run.failures {
        out.push(Entry {
            source: f.file.clone(),
            key: key(&f.file),
            status: Status::Failed(f.error.clone()),
        });
    }
    for h in &run.hosts {
        for s in &h.sources {
            out.push(Entry {
                source: s.file.clone(),
                key: key(&s.file),
                status: Status::NotRebuilt("os_log"),
            });
        }
    }
    for v in &run.virtual_ {
        for (file, _) in &v.sources {
            out.push(Entry {
                source: file.clone(),
                key: key(file),
                status: Status::NotRebuilt("virtual"),
            });
        }
    }
    out
}

fn kind_id(k: ReportKind) -> &'static str {
    match k {
        ReportKind::Instance => "instance",
        ReportKind::RacGlobal => "rac_global",
        ReportKind::Pdb => "pdb",
    }
}

fn ms(t: Option<NaiveDateTime>) -> Option<i64> {
    t.map(|t| t.and_utc().timestamp_millis())
}

fn from_ms(v: Option<i64>) -> Option<NaiveDateTime> {
    v.and_then(chrono::DateTime::from_timestamp_millis)
        .map(|t| t.naive_utc())
}

/// The columns of the reports table, in order.
pub const REPORT_COLUMNS: [&str; 45] = [
    "report",
    "status",
    "source",
    "root",
    "relative",
    "duplicate_of",
    "differs",
    "reason",
    "format",
    "report_kind",
    "statspack",
    "rate_decimals",
    "title",
    "heading",
    "encoding",
    "db_id",
    "db_name",
    "unique_name",
    "role",
    "edition",
    "release",
    "rac",
    "cdb",
    "size_on_disk_gib",
    "size_on_disk_snap",
    "container_ids",
    "container_names",
    "begin_snap",
    "end_snap",
    "begin_time",
    "end_time",
    "elapsed_min",
    "elapsed_decimals",
    "db_time_min",
    "instance_index",
    "instance",
    "instance_number",
    "startup_time",
    "host",
    "platform",
    "cpus",
    "cores",
    "sockets",
    "memory_gb",
    "warnings",
];

/// One flattened row: a report and one of its instances.
#[derive(Default)]
struct Flat {
    report: u32,
    status: &'static str,
    source: String,
    root: u32,
    relative: String,
    duplicate_of: Option<String>,
    differs: Option<bool>,
    reason: Option<String>,
    info: Option<Box<ReportInfo>>,
    instance_index: Option<u32>,
}

/// The reports table of `entries` as a frame (columns [`REPORT_COLUMNS`]; list columns as
/// Parquet lists).
pub(crate) fn frame(entries: &[Entry]) -> PolarsResult<DataFrame> {
    let mut flat: Vec<Flat> = Vec::new();
    for (n, e) in entries.iter().enumerate() {
        let mut f = Flat {
            report: n as u32,
            source: e.source.clone(),
            root: e.key.root,
            relative: e.key.relative.clone(),
            ..Flat::default()
        };
        match &e.status {
            Status::Report(info) => {
                f.status = "report";
                f.info = Some(info.clone());
                let k = info.instances.len();
                if k == 0 {
                    flat.push(f);
                    continue;
                }
                for i in 0..k {
                    flat.push(Flat {
                        instance_index: Some(i as u32),
                        source: f.source.clone(),
                        relative: f.relative.clone(),
                        info: f.info.clone(),
                        ..Flat {
                            report: f.report,
                            status: f.status,
                            root: f.root,
                            ..Flat::default()
                        }
                    });
                }
                continue;
            }
            Status::Duplicate {
                duplicate_of,
                differs,
            } => {
                f.status = "duplicate";
                f.duplicate_of = Some(duplicate_of.clone());
                f.differs = Some(*differs);
            }
            Status::Skipped(r) => {
                f.status = "skipped";
                f.reason = Some(r.clone());
            }
            Status::Failed(r) => {
                f.status = "failed";
                f.reason = Some(r.clone());
            }
            Status::NotRebuilt(kind) => f.status = kind,
        }
        flat.push(f);
    }
    fn info(f: &Flat) -> Option<&ReportInfo> {
        f.info.as_deref()
    }
    fn inst(f: &Flat) -> Option<&InstanceInfo> {
        f.info
            .as_deref()
            .zip(f.instance_index)
            .and_then(|(i, k)| i.instances.get(k as usize))
    }
    let s = |name: &str, v: Vec<Option<String>>| Column::new(name.into(), v);
    let u32c = |name: &str, v: Vec<Option<u32>>| Column::new(name.into(), v);
    let u64c = |name: &str, v: Vec<Option<u64>>| Column::new(name.into(), v);
    let f64c = |name: &str, v: Vec<Option<f64>>| Column::new(name.into(), v);
    let bc = |name: &str, v: Vec<Option<bool>>| Column::new(name.into(), v);
    let dt = |name: &str, v: Vec<Option<i64>>| {
        Column::new(name.into(), v).cast(&DataType::Datetime(TimeUnit::Milliseconds, None))
    };
    let list_s = |name: &str, v: Vec<Vec<String>>| {
        let parts: Vec<Series> = v
            .into_iter()
            .map(|x| Series::new(PlSmallStr::EMPTY, x))
            .collect();
        // Typed even when the table has no row (a list of no series has no item type).
        Series::new(name.into(), parts)
            .cast(&DataType::List(Box::new(DataType::String)))
            .map(|s| s.into_column())
    };
    let col_s =
        |name: &str, g: &dyn Fn(&Flat) -> Option<String>| s(name, flat.iter().map(g).collect());
    let cols = vec![
        u32c("report", flat.iter().map(|f| Some(f.report)).collect()),
        col_s("status", &|f| Some(f.status.to_string())),
        col_s("source", &|f| Some(f.source.clone())),
        u32c("root", flat.iter().map(|f| Some(f.root)).collect()),
        col_s("relative", &|f| Some(f.relative.clone())),
        col_s("duplicate_of", &|f| f.duplicate_of.clone()),
        bc("differs", flat.iter().map(|f| f.differs).collect()),
        col_s("reason", &|f| f.reason.clone()),
        col_s("format", &|f| info(f).map(|i| i.format.id().to_string())),
        col_s("report_kind", &|f| {
            info(f).map(|i| kind_id(i.kind).to_string())
        }),
        bc(
            "statspack",
            flat.iter().map(|f| info(f).map(|i| i.statspack)).collect(),
        ),
        u32c(
            "rate_decimals",
            flat.iter()
                .map(|f| info(f).map(|i| i.rate_decimals))
                .collect(),
        ),
        col_s("title", &|f| info(f).map(|i| i.title.clone())),
        col_s("heading", &|f| info(f).map(|i| i.heading.clone())),
        col_s("encoding", &|f| info(f).map(|i| i.encoding.clone())),
        u64c(
            "db_id",
            flat.iter().map(|f| info(f).map(|i| i.db.db_id)).collect(),
        ),
        col_s("db_name", &|f| info(f).map(|i| i.db.db_name.clone())),
        col_s("unique_name", &|f| {
            info(f).and_then(|i| i.db.unique_name.clone())
        }),
        col_s("role", &|f| info(f).and_then(|i| i.db.role.clone())),
        col_s("edition", &|f| info(f).and_then(|i| i.db.edition.clone())),
        col_s("release", &|f| info(f).map(|i| i.db.release.clone())),
        bc(
            "rac",
            flat.iter()
                .map(|f| info(f).and_then(|i| i.db.rac))
                .collect(),
        ),
        bc(
            "cdb",
            flat.iter()
                .map(|f| info(f).and_then(|i| i.db.cdb))
                .collect(),
        ),
        f64c(
            "size_on_disk_gib",
            flat.iter()
                .map(|f| info(f).and_then(|i| i.db.size_on_disk.map(|s| s.gib)))
                .collect(),
        ),
        u64c(
            "size_on_disk_snap",
            flat.iter()
                .map(|f| info(f).and_then(|i| i.db.size_on_disk.map(|s| s.snap_id)))
                .collect(),
        ),
        {
            let parts: Vec<Series> = flat
                .iter()
                .map(|f| {
                    let v: Vec<u64> = info(f)
                        .map(|i| i.db.containers.iter().map(|c| c.0).collect())
                        .unwrap_or_default();
                    Series::new(PlSmallStr::EMPTY, v)
                })
                .collect();
            Series::new("container_ids".into(), parts)
                .cast(&DataType::List(Box::new(DataType::UInt64)))?
                .into_column()
        },
        list_s(
            "container_names",
            flat.iter()
                .map(|f| {
                    info(f)
                        .map(|i| i.db.containers.iter().map(|c| c.1.clone()).collect())
                        .unwrap_or_default()
                })
                .collect(),
        )?,
        u64c(
            "begin_snap",
            flat.iter()
                .map(|f| info(f).map(|i| i.snapshots.begin_id))
                .collect(),
        ),
        u64c(
            "end_snap",
            flat.iter()
                .map(|f| info(f).map(|i| i.snapshots.end_id))
                .collect(),
        ),
        dt(
            "begin_time",
            flat.iter()
                .map(|f| info(f).and_then(|i| ms(i.snapshots.begin_time)))
                .collect(),
        )?,
        dt(
            "end_time",
            flat.iter()
                .map(|f| info(f).and_then(|i| ms(i.snapshots.end_time)))
                .collect(),
        )?,
        f64c(
            "elapsed_min",
            flat.iter()
                .map(|f| info(f).and_then(|i| i.snapshots.elapsed_min))
                .collect(),
        ),
        u32c(
            "elapsed_decimals",
            flat.iter()
                .map(|f| info(f).and_then(|i| i.snapshots.elapsed_decimals))
                .collect(),
        ),
        f64c(
            "db_time_min",
            flat.iter()
                .map(|f| info(f).and_then(|i| i.snapshots.db_time_min))
                .collect(),
        ),
        u32c(
            "instance_index",
            flat.iter().map(|f| f.instance_index).collect(),
        ),
        col_s("instance", &|f| inst(f).map(|i| i.name.clone())),
        u32c(
            "instance_number",
            flat.iter().map(|f| inst(f).map(|i| i.number)).collect(),
        ),
        dt(
            "startup_time",
            flat.iter()
                .map(|f| inst(f).and_then(|i| ms(i.startup)))
                .collect(),
        )?,
        col_s("host", &|f| inst(f).and_then(|i| i.host.clone())),
        col_s("platform", &|f| inst(f).and_then(|i| i.platform.clone())),
        u32c(
            "cpus",
            flat.iter().map(|f| inst(f).and_then(|i| i.cpus)).collect(),
        ),
        u32c(
            "cores",
            flat.iter().map(|f| inst(f).and_then(|i| i.cores)).collect(),
        ),
        u32c(
            "sockets",
            flat.iter()
                .map(|f| inst(f).and_then(|i| i.sockets))
                .collect(),
        ),
        f64c(
            "memory_gb",
            flat.iter()
                .map(|f| inst(f).and_then(|i| i.memory_gb))
                .collect(),
        ),
        list_s(
            "warnings",
            flat.iter()
                .map(|f| info(f).map(|i| i.warnings.clone()).unwrap_or_default())
                .collect(),
        )?,
    ];
    DataFrame::new(flat.len(), cols)
}

/// Why a reports table could not be read back.
fn bad(what: String) -> PolarsError {
    PolarsError::ComputeError(what.into())
}

/// The entries of a reports table read back (the inverse of [`frame`]); the reports'
/// `statistics` are filled from their rows by the caller.
///
/// # Errors
/// A column missing or of another type, an unknown status, kind or format (named).
pub(crate) fn read(df: &DataFrame) -> PolarsResult<Vec<Entry>> {
    let n = df.height();
    let s = |c: &str| -> PolarsResult<Vec<Option<String>>> {
        Ok(df
            .column(c)?
            .str()?
            .iter()
            .map(|v| v.map(str::to_string))
            .collect())
    };
    let u32v =
        |c: &str| -> PolarsResult<Vec<Option<u32>>> { Ok(df.column(c)?.u32()?.iter().collect()) };
    let u64v =
        |c: &str| -> PolarsResult<Vec<Option<u64>>> { Ok(df.column(c)?.u64()?.iter().collect()) };
    let f64v =
        |c: &str| -> PolarsResult<Vec<Option<f64>>> { Ok(df.column(c)?.f64()?.iter().collect()) };
    let bv =
        |c: &str| -> PolarsResult<Vec<Option<bool>>> { Ok(df.column(c)?.bool()?.iter().collect()) };
    let tv = |c: &str| -> PolarsResult<Vec<Option<NaiveDateTime>>> {
        Ok(df
            .column(c)?
            .cast(&DataType::Int64)?
            .i64()?
            .iter()
            .map(from_ms)
            .collect())
    };
    let lists = |c: &str| -> PolarsResult<Vec<Vec<String>>> {
        let col = df.column(c)?.list()?.clone();
        (0..col.len())
            .map(|i| match col.get_as_series(i) {
                None => Ok(Vec::new()),
                Some(s) => Ok(s
                    .str()?
                    .iter()
                    .map(|x| x.unwrap_or_default().to_string())
                    .collect()),
            })
            .collect()
    };
    let ids = {
        let col = df.column("container_ids")?.list()?.clone();
        (0..col.len())
            .map(|i| match col.get_as_series(i) {
                None => Ok(Vec::new()),
                Some(s) => Ok(s.u64()?.iter().map(|x| x.unwrap_or_default()).collect()),
            })
            .collect::<PolarsResult<Vec<Vec<u64>>>>()?
    };
    let (report, status, source, root, relative) = (
        u32v("report")?,
        s("status")?,
        s("source")?,
        u32v("root")?,
        s("relative")?,
    );
    let (dup_of, differs, reason) = (s("duplicate_of")?, bv("differs")?, s("reason")?);
    let (format, kind, statspack, rate_decimals) = (
        s("format")?,
        s("report_kind")?,
        bv("statspack")?,
        u32v("rate_decimals")?,
    );
    let (title, heading, encoding) = (s("title")?, s("heading")?, s("encoding")?);
    let (db_id, db_name, unique_name, role, edition, release, rac, cdb) = (
        u64v("db_id")?,
        s("db_name")?,
        s("unique_name")?,
        s("role")?,
        s("edition")?,
        s("release")?,
        bv("rac")?,
        bv("cdb")?,
    );
    let (sod_gib, sod_snap) = (f64v("size_on_disk_gib")?, u64v("size_on_disk_snap")?);
    let names = lists("container_names")?;
    let (begin_snap, end_snap, begin_time, end_time) = (
        u64v("begin_snap")?,
        u64v("end_snap")?,
        tv("begin_time")?,
        tv("end_time")?,
    );
    let (elapsed_min, elapsed_decimals, db_time_min) = (
        f64v("elapsed_min")?,
        u32v("elapsed_decimals")?,
        f64v("db_time_min")?,
    );
    let (inst_index, inst, inst_no, startup) = (
        u32v("instance_index")?,
        s("instance")?,
        u32v("instance_number")?,
        tv("startup_time")?,
    );
    let (host, platform, cpus, cores, sockets, memory) = (
        s("host")?,
        s("platform")?,
        u32v("cpus")?,
        u32v("cores")?,
        u32v("sockets")?,
        f64v("memory_gb")?,
    );
    let warnings = lists("warnings")?;
    let mut out: Vec<Entry> = Vec::new();
    let mut last: Option<u32> = None;
    for r in 0..n {
        let instance = inst_index[r].map(|_| InstanceInfo {
            name: inst[r].clone().unwrap_or_default(),
            number: inst_no[r].unwrap_or_default(),
            startup: startup[r],
            host: host[r].clone(),
            platform: platform[r].clone(),
            cpus: cpus[r],
            cores: cores[r],
            sockets: sockets[r],
            memory_gb: memory[r],
        });
        if last == report[r] && report[r].is_some() {
            // Another instance of the same report.
            if let (
                Some(Entry {
                    status: Status::Report(info),
                    ..
                }),
                Some(i),
            ) = (out.last_mut(), instance)
            {
                let mut all = info.instances.to_vec();
                all.push(i);
                info.instances = all.into();
            }
            continue;
        }
        last = report[r];
        let st = status[r].as_deref().unwrap_or_default();
        let status = match st {
            "report" => {
                let fmt = format[r].as_deref().unwrap_or_default();
                let format = [
                    sizer_parsers::Format::AwrHtml,
                    sizer_parsers::Format::AwrText,
                    sizer_parsers::Format::Statspack,
                ]
                .into_iter()
                .find(|f| f.id() == fmt)
                .ok_or_else(|| {
                    bad(if fmt == sizer_parsers::Format::AwrMiner.id() {
                        format!("row {r}: a collector capture ('{fmt}'): --from-export rebuilds AWR and Statspack reports only; analyse collector captures in one run, beside the merge (docs/scale.md)")
                    } else {
                        format!("row {r}: format '{fmt}' is not a report format")
                    })
                })?;
                let kind = match kind[r].as_deref().unwrap_or_default() {
                    "instance" => ReportKind::Instance,
                    "rac_global" => ReportKind::RacGlobal,
                    "pdb" => ReportKind::Pdb,
                    other => return Err(bad(format!("row {r}: report_kind '{other}'"))),
                };
                Status::Report(Box::new(ReportInfo {
                    kind,
                    format,
                    statspack: statspack[r].unwrap_or_default(),
                    rate_decimals: rate_decimals[r].unwrap_or(2),
                    title: title[r].clone().unwrap_or_default(),
                    heading: heading[r].clone().unwrap_or_default(),
                    db: std::sync::Arc::new(DbInfo {
                        db_name: db_name[r].clone().unwrap_or_default(),
                        db_id: db_id[r].unwrap_or_default(),
                        unique_name: unique_name[r].clone(),
                        role: role[r].clone(),
                        edition: edition[r].clone(),
                        release: release[r].clone().unwrap_or_default(),
                        rac: rac[r],
                        cdb: cdb[r],
                        size_on_disk: sod_gib[r]
                            .zip(sod_snap[r])
                            .map(|(gib, snap_id)| sizer_parsers::awr::SizeOnDisk { gib, snap_id }),
                        containers: ids[r].iter().copied().zip(names[r].clone()).collect(),
                    }),
                    instances: instance.into_iter().collect::<Vec<_>>().into(),
                    snapshots: Snapshots {
                        begin_id: begin_snap[r].unwrap_or_default(),
                        end_id: end_snap[r].unwrap_or_default(),
                        begin_time: begin_time[r],
                        end_time: end_time[r],
                        elapsed_min: elapsed_min[r],
                        elapsed_decimals: elapsed_decimals[r],
                        db_time_min: db_time_min[r],
                    },
                    encoding: encoding[r].clone().unwrap_or_default(),
                    warnings: warnings[r].clone(),
                    statistics: Default::default(),
                }))
            }
            "duplicate" => Status::Duplicate {
                duplicate_of: dup_of[r].clone().unwrap_or_default(),
                differs: differs[r].unwrap_or_default(),
            },
            "skipped" => Status::Skipped(reason[r].clone().unwrap_or_default()),
            "failed" => Status::Failed(reason[r].clone().unwrap_or_default()),
            "os_log" => Status::NotRebuilt("os_log"),
            "virtual" => Status::NotRebuilt("virtual"),
            other => return Err(bad(format!("row {r}: status '{other}'"))),
        };
        out.push(Entry {
            source: source[r].clone().unwrap_or_default(),
            key: InputKey {
                root: root[r].unwrap_or_default(),
                relative: relative[r].clone().unwrap_or_default(),
            },
            status,
        });
    }
    Ok(out)
}
