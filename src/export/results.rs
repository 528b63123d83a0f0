//! The results table of an export (`<stem>.results.<ext>`): sizer's answers, one row per
//! database or host and target platform, so that a later query (DuckDB, Spark) adds up the
//! fleet without re-deriving any figure (`docs/export.md`, Results table).
//!
//! Every value is the engine's own (the recommendation of each subject, its capacity and the
//! statistic it was sized on); a subject that was not sized has one row with `platform` null and
//! `not_sized` true. `monthly_cost_usd` is null when no capacity was given (the price of a
//! performance-only layout is not a budget: `cost_note` says `capacity not given`) and where the
//! tier has no list price (on-premises: `no list price`). Units: IOPS = requests/s, MB/s = 10^6
//! B/s, GiB = 2^30 B, USD per month.

use polars::prelude::*;

use crate::capacity::CapacityInfo;
use crate::model::series::SeriesStats;
use crate::pipeline::Run;
use crate::rules::Recommendation;
use crate::settings::SizeOn;

/// The `cost_note` of a row whose subject was sized without a capacity.
pub const CAPACITY_NOT_GIVEN: &str = "capacity not given";
/// The `cost_note` of a tier without a list price.
pub const NO_LIST_PRICE: &str = "no list price";

/// The columns of the results table, in order.
pub const RESULT_COLUMNS: [&str; 28] = [
    "subject_kind",
    "subject",
    "db_name",
    "db_id",
    "host",
    "size_on",
    "sizing_statistic",
    "sizing_value",
    "total_mb_s",
    "headroom_pct",
    "sized_iops",
    "sized_mb_s",
    "capacity_given",
    "capacity_gib",
    "capacity_source",
    "capacity_missing_from_file",
    "platform",
    "not_sized",
    "feasible",
    "recommended_tier",
    "tier_name",
    "count",
    "unit",
    "size_per_unit_gib",
    "total_gib",
    "monthly_cost_usd",
    "cost_note",
    "fired_rules",
];

/// One subject, as the table needs it.
struct Subject<'a> {
    kind: &'static str,
    key: &'a str,
    db_name: Option<&'a str>,
    db_id: Option<u64>,
    host: Option<String>,
    size_on: SizeOn,
    basis: &'a str,
    statistics: &'a std::collections::BTreeMap<String, SeriesStats>,
    rec: Option<&'a Recommendation>,
    capacity: &'a CapacityInfo,
}

#[derive(Default, Clone)]
struct Row {
    kind: &'static str,
    subject: String,
    db_name: Option<String>,
    db_id: Option<u64>,
    host: Option<String>,
    size_on: String,
    statistic: String,
    value: Option<f64>,
    mb_s: Option<f64>,
    headroom: Option<f64>,
    sized_iops: Option<f64>,
    sized_mb_s: Option<f64>,
    capacity_given: bool,
    capacity_gib: Option<f64>,
    capacity_source: Option<String>,
    missing: bool,
    platform: Option<String>,
    not_sized: bool,
    feasible: Option<bool>,
    tier: Option<String>,
    tier_name: Option<String>,
    count: Option<u32>,
    unit: Option<String>,
    size_gib: Option<f64>,
    total_gib: Option<f64>,
    cost: Option<f64>,
    cost_note: Option<&'static str>,
    fired: Vec<String>,
}

fn size_on_id(s: SizeOn) -> String {
    serde_json::to_value(s)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn rows_of(s: &Subject<'_>, out: &mut Vec<Row>) {
    let stat = |f: &str| s.statistics.get(f).and_then(|x| x.get(s.size_on));
    let base = Row {
        kind: s.kind,
        subject: s.key.to_string(),
        db_name: s.db_name.map(str::to_string),
        db_id: s.db_id,
        host: s.host.clone(),
        size_on: size_on_id(s.size_on),
        statistic: s.basis.to_string(),
        value: stat(s.basis),
        mb_s: stat("total_mb_s"),
        capacity_gib: s.capacity.used.as_ref().map(|u| u.gib),
        capacity_source: s.capacity.used.as_ref().map(|u| u.source.clone()),
        missing: s.capacity.missing_from_file,
        ..Row::default()
    };
    let Some(r) = s.rec else {
        out.push(Row {
            not_sized: true,
            ..base
        });
        return;
    };
    let fired: Vec<String> = r.fired_rules.iter().map(|f| f.id.clone()).collect();
    for p in &r.platforms {
        let o = p.recommended.as_ref();
        let price = o.and_then(|o| o.monthly_cost_usd);
        let (cost, note) = match (r.capacity_given, o, price) {
            (_, None, _) => (None, None),
            (false, Some(_), _) => (None, Some(CAPACITY_NOT_GIVEN)),
            (true, Some(_), None) => (None, Some(NO_LIST_PRICE)),
            (true, Some(_), Some(c)) => (Some(c), None),
        };
        out.push(Row {
            headroom: Some(r.headroom_pct),
            sized_iops: Some(r.sized_iops),
            sized_mb_s: r.sized_mb_s,
            capacity_given: r.capacity_given,
            platform: Some(p.platform.clone()),
            feasible: Some(o.is_some()),
            tier: o.map(|o| o.tier_id.clone()),
            tier_name: o.map(|o| o.name.clone()),
            count: o.map(|o| o.count),
            unit: o.and_then(|o| {
                serde_json::to_value(o.unit)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
            }),
            size_gib: o.map(|o| o.size_per_unit_gib),
            total_gib: o.map(|o| o.total_gib),
            cost,
            cost_note: note,
            fired: fired.clone(),
            ..base.clone()
        });
    }
}

/// The results table of `run` (columns [`RESULT_COLUMNS`]): its databases, then its hosts.
///
/// # Errors
/// A polars error if a column cannot be built.
pub(crate) fn frame(run: &Run) -> PolarsResult<DataFrame> {
    let mut rows = Vec::new();
    for d in &run.databases {
        let mut hosts: Vec<String> = d
            .instance_info
            .iter()
            .filter_map(|i| i.host.clone())
            .collect();
        hosts.dedup();
        rows_of(
            &Subject {
                kind: "database",
                key: &d.key,
                db_name: Some(&d.database.db_name),
                db_id: Some(d.database.db_id),
                host: (!hosts.is_empty()).then(|| hosts.join(",")),
                size_on: d.size_on,
                basis: &d.sizing_basis,
                statistics: &d.statistics,
                rec: d.recommendation.as_ref(),
                capacity: &d.capacity,
            },
            &mut rows,
        );
    }
    for h in &run.hosts {
        rows_of(
            &Subject {
                kind: "host",
                key: &h.host,
                db_name: None,
                db_id: None,
                host: Some(h.host.clone()),
                size_on: h.size_on,
                basis: "total_iops",
                statistics: &h.statistics,
                rec: h.recommendation.as_ref(),
                capacity: &h.capacity,
            },
            &mut rows,
        );
    }
    let s = |name: &str, g: &dyn Fn(&Row) -> Option<String>| {
        Column::new(name.into(), rows.iter().map(g).collect::<Vec<_>>())
    };
    let f = |name: &str, g: &dyn Fn(&Row) -> Option<f64>| {
        Column::new(name.into(), rows.iter().map(g).collect::<Vec<_>>())
    };
    let b = |name: &str, g: &dyn Fn(&Row) -> Option<bool>| {
        Column::new(name.into(), rows.iter().map(g).collect::<Vec<_>>())
    };
    let fired: Vec<Series> = rows
        .iter()
        .map(|r| Series::new(PlSmallStr::EMPTY, r.fired.clone()))
        .collect();
    let cols = vec![
        s("subject_kind", &|r| Some(r.kind.to_string())),
        s("subject", &|r| Some(r.subject.clone())),
        s("db_name", &|r| r.db_name.clone()),
        Column::new(
            "db_id".into(),
            rows.iter().map(|r| r.db_id).collect::<Vec<_>>(),
        ),
        s("host", &|r| r.host.clone()),
        s("size_on", &|r| Some(r.size_on.clone())),
        s("sizing_statistic", &|r| Some(r.statistic.clone())),
        f("sizing_value", &|r| r.value),
        f("total_mb_s", &|r| r.mb_s),
        f("headroom_pct", &|r| r.headroom),
        f("sized_iops", &|r| r.sized_iops),
        f("sized_mb_s", &|r| r.sized_mb_s),
        b("capacity_given", &|r| Some(r.capacity_given)),
        f("capacity_gib", &|r| r.capacity_gib),
        s("capacity_source", &|r| r.capacity_source.clone()),
        b("capacity_missing_from_file", &|r| Some(r.missing)),
        s("platform", &|r| r.platform.clone()),
        b("not_sized", &|r| Some(r.not_sized)),
        b("feasible", &|r| r.feasible),
        s("recommended_tier", &|r| r.tier.clone()),
        s("tier_name", &|r| r.tier_name.clone()),
        Column::new(
            "count".into(),
            rows.iter().map(|r| r.count).collect::<Vec<_>>(),
        ),
        s("unit", &|r| r.unit.clone()),
        f("size_per_unit_gib", &|r| r.size_gib),
        f("total_gib", &|r| r.total_gib),
        f("monthly_cost_usd", &|r| r.cost),
        s("cost_note", &|r| r.cost_note.map(str::to_string)),
        Series::new("fired_rules".into(), fired)
            .cast(&DataType::List(Box::new(DataType::String)))?
            .into_column(),
    ];
    DataFrame::new(rows.len(), cols)
}
