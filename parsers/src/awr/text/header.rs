//! The head of a text report: the database and instance records, the snapshot lines, and the
//! RAC global report's instance table (also read for Statspack).
//!
//! Flow: the records under the `DB Name`/`Instance` headings are read as label → value maps
//! (`header_from_records`), the `Begin Snap:`/`End Snap:`/`Elapsed:` lines give the
//! [`Snapshots`], and a global report's per-instance table gives one [`InstanceInfo`] per row.

use super::*;

pub(crate) type Header = (DbInfo, Vec<InstanceInfo>, Snapshots);

pub(super) fn yes_no(s: Option<&String>) -> Option<bool> {
    match s.map(|s| s.trim().to_ascii_uppercase()).as_deref() {
        Some("YES") => Some(true),
        Some("NO") => Some(false),
        _ => None,
    }
}

pub(crate) fn get(rec: &HashMap<String, String>, keys: &[&str]) -> Option<String> {
    keys.iter()
        .filter_map(|k| rec.get(*k))
        .map(|s| s.trim().to_string())
        .find(|s| !s.is_empty())
}

pub(super) fn opt_num(rec: &HashMap<String, String>, keys: &[&str]) -> Option<f64> {
    get(rec, keys).and_then(|s| num::number(&s, Scale::Decimal).ok().flatten())
}

/// Index of the `Begin Snap:` line (the header tables are above it).
pub(crate) fn begin_snap_line(d: &Doc) -> Option<usize> {
    (d.heading..d.lines.len()).find(|&i| d.lines[i].s.trim_start().starts_with("Begin Snap:"))
}

/// The database, instance and host of an instance (or PDB) report and of a Statspack report.
pub(crate) fn header_from_records(
    d: &Doc,
    what: &str,
) -> Result<(DbInfo, InstanceInfo, HashMap<String, String>), ParseError> {
    let end = begin_snap_line(d).unwrap_or((d.heading + 60).min(d.lines.len()));
    let rec = d.records(d.heading + 1, end);
    let db_id = get(&rec, &["db id"]).and_then(|s| s.parse::<u64>().ok());
    let Some(db_id) = db_id else {
        return Err(ParseError::section(
            "report header",
            Some(d.lines[d.heading].no),
            format!("a header table with a numeric DB Id ({what})"),
            get(&rec, &["db id"])
                .map(|s| format!("'{s}'"))
                .unwrap_or_else(|| "no DB Id column".into()),
        ));
    };
    let db = DbInfo {
        db_name: get(&rec, &["db name"]).unwrap_or_default(),
        db_id,
        unique_name: get(&rec, &["unique name"]),
        role: get(&rec, &["db role", "role"]),
        edition: get(&rec, &["edition"]),
        release: get(&rec, &["release"]).unwrap_or_default(),
        rac: yes_no(rec.get("rac")),
        cdb: yes_no(rec.get("cdb")),
        containers: Vec::new(),
        size_on_disk: None,
    };
    let inst = InstanceInfo {
        name: get(&rec, &["instance"]).unwrap_or_default(),
        number: opt_num(&rec, &["inst num"]).map_or(1, |v| v as u32),
        startup: get(&rec, &["startup time"]).and_then(|s| num::awr_datetime(&s)),
        host: get(&rec, &["host name", "host", "name"]),
        platform: get(&rec, &["platform"]),
        cpus: opt_num(&rec, &["cpus"]).map(|v| v as u32),
        cores: opt_num(&rec, &["cores"]).map(|v| v as u32),
        sockets: opt_num(&rec, &["sockets"]).map(|v| v as u32),
        memory_gb: opt_num(&rec, &["memory(gb)", "memory (gb)", "memory (g)"]),
    };
    Ok((db, inst, rec))
}

pub(super) fn header_instance(d: &Doc) -> Result<Header, ParseError> {
    let (mut db, inst, _) = header_from_records(d, "DB Name, DB Id, Instance …")?;
    // PDB reports list their containers.
    let end = begin_snap_line(d).unwrap_or(d.lines.len());
    for i in d.heading + 1..end {
        if !is_underline(&d.lines[i].s) {
            continue;
        }
        let t = Table::at(&d.lines, i, d.heading + 1);
        let (Some(id), Some(name)) = (t.col(&["container db id"]), t.col(&["container name"]))
        else {
            continue;
        };
        for r in t.rows(&d.lines, end) {
            let c = t.cells(&d.lines[r].s);
            if let Ok(v) = c[id].parse::<u64>() {
                if !db.containers.iter().any(|(i, _)| *i == v) {
                    db.containers.push((v, c[name].clone()));
                }
            }
        }
    }
    let snaps = snapshots(d)?;
    Ok((db, vec![inst], snaps))
}

/// `Begin Snap:      2668 …` → (label, id) and the rest of the line.
pub(super) fn snap_head(s: &str) -> nom::IResult<&str, (&str, &str)> {
    let (rest, (_, label, _, id, _)) = (
        space0,
        alt((tag("Begin Snap:"), tag("End Snap:"))),
        space1,
        digit1,
        space1,
    )
        .parse(s)?;
    Ok((rest, (label, id)))
}

/// `04-Feb-23 19:00:39 …` → (date, time).
pub(super) fn date_time(s: &str) -> nom::IResult<&str, (&str, &str)> {
    let (rest, (date, _, time)) =
        (take_till1(|c| c == ' '), space1, take_till1(|c| c == ' ')).parse(s)?;
    Ok((rest, (date, time)))
}

/// `Begin Snap:      2668 04-Feb-23 19:00:39 …` → (is begin, id, time).
pub(super) fn snap_line(s: &str) -> Option<(bool, u64, Option<chrono::NaiveDateTime>)> {
    let (rest, (label, id)) = snap_head(s).ok()?;
    let when = date_time(rest)
        .ok()
        .and_then(|(_, (d, t))| num::awr_datetime(&format!("{d} {t}")));
    Some((label.starts_with("Begin"), id.parse().ok()?, when))
}

/// `Elapsed:   60.25 (mins)` / `DB Time:  66.24 (mins)` / Statspack `DB time:  10.30 (mins)  DB
/// CPU: …` → (is elapsed, minutes).
pub(super) fn minutes_line(s: &str) -> Option<(bool, f64)> {
    let r: nom::IResult<&str, (&str, &str, &str)> = (
        space0,
        alt((tag("Elapsed:"), tag_no_case("DB Time:"))),
        take_until("(mins)"),
    )
        .parse(s);
    let (_, (_, label, v)) = r.ok()?;
    Some((label == "Elapsed:", num::minutes(v)?))
}

/// Decimals of the minutes on an `Elapsed:` line (`60.25 (mins)` → 2).
fn elapsed_decimals(s: &str) -> Option<u32> {
    let v = s.split("Elapsed:").nth(1)?.split("(mins)").next()?;
    Some(num::decimals(v))
}

/// The snapshot lines below the header.
pub(crate) fn snapshots(d: &Doc) -> Result<Snapshots, ParseError> {
    let mut snaps = Snapshots::default();
    let from = begin_snap_line(d).unwrap_or(d.heading);
    for l in d.lines.iter().skip(from).take(12) {
        if let Some((begin, id, when)) = snap_line(&l.s) {
            if begin {
                snaps.begin_id = id;
                snaps.begin_time = when;
            } else {
                snaps.end_id = id;
                snaps.end_time = when;
            }
        } else if let Some((elapsed, m)) = minutes_line(&l.s) {
            if elapsed {
                if snaps.elapsed_min.is_none() {
                    snaps.elapsed_min = Some(m);
                    snaps.elapsed_decimals = elapsed_decimals(&l.s);
                }
            } else {
                snaps.db_time_min.get_or_insert(m);
            }
        }
    }
    if snaps.begin_id == 0 || snaps.end_id == 0 {
        return Err(ParseError::section(
            "snapshot information",
            Some(d.lines[from].no),
            "lines 'Begin Snap:' and 'End Snap:' with numeric Snap Ids",
            "no such lines",
        ));
    }
    Ok(snaps)
}

pub(super) fn header_global(d: &Doc, cx: &mut Ctx) -> Result<Header, ParseError> {
    let sec = d.find(|t| t == "database summary").next().ok_or_else(|| {
        ParseError::section(
            "Database Summary",
            None,
            "the RAC report's 'Database Summary' table (Id, Name, RAC, Begin, End, Elapsed time)",
            "no such section",
        )
    })?;
    let rec = Table::all_in(&d.lines, sec)
        .first()
        .map(|t| t.first_record(&d.lines, sec.end))
        .unwrap_or_default();
    let line = d.lines[sec.at].no;
    let db_id = get(&rec, &["id"])
        .and_then(|s| s.parse::<u64>().ok())
        .ok_or_else(|| {
            ParseError::section(
                "Database Summary",
                Some(line),
                "a numeric database Id",
                "none",
            )
        })?;
    let mut instances = Vec::new();
    let mut release = String::new();
    let (mut begin_time, mut end_time) = (None, None);
    if let Some(si) = d
        .find(|t| t.starts_with("database instances included in report"))
        .next()
    {
        for t in Table::all_in(&d.lines, si) {
            let Some(ic) = t.col(&["i#"]) else { continue };
            let c = |k: &[&str]| t.col(k);
            let (name, host, startup, bst, est, rel, plat) = (
                c(&["instance"]),
                c(&["host"]),
                c(&["startup"]),
                c(&["begin snap time"]),
                c(&["end snap time"]),
                c(&["release"]),
                c(&["platform"]),
            );
            for r in t.rows(&d.lines, si.end) {
                let cells = t.cells(&d.lines[r].s);
                let cell = |i: Option<usize>| i.map(|i| cells[i].clone()).unwrap_or_default();
                let Ok(number) = cells[ic].parse::<u32>() else {
                    continue;
                };
                if release.is_empty() {
                    release = cell(rel);
                    begin_time = num::awr_datetime(&cell(bst));
                    end_time = num::awr_datetime(&cell(est));
                }
                instances.push(InstanceInfo {
                    name: cell(name),
                    number,
                    startup: num::awr_datetime(&cell(startup)),
                    host: Some(cell(host)).filter(|s| !s.is_empty()),
                    platform: Some(cell(plat)).filter(|s| !s.is_empty()),
                    ..Default::default()
                });
            }
        }
    }
    if let Some(so) = d
        .find(|t| t.starts_with("os statistics by instance"))
        .next()
    {
        for t in Table::all_in(&d.lines, so) {
            let Some(ic) = t.col(&["i#"]) else { continue };
            for r in t.rows(&d.lines, so.end) {
                let ln = &d.lines[r];
                let cells = t.cells(&ln.s);
                let Ok(number) = cells[ic].parse::<u32>() else {
                    continue;
                };
                let Some(inst) = instances.iter_mut().find(|i| i.number == number) else {
                    continue;
                };
                let mut n = |k: &str| {
                    t.col(&[k])
                        .and_then(|i| cx.num(&so.title, ln.no, k, &cells[i]))
                };
                inst.cpus = n("#cpus").map(|v| v as u32);
                inst.cores = n("#cores").map(|v| v as u32);
                inst.sockets = n("#sckts").map(|v| v as u32);
                inst.memory_gb = n("mb").map(|mb| mb / 1024.0);
            }
        }
    }
    let db = DbInfo {
        db_name: get(&rec, &["name"]).unwrap_or_default(),
        db_id,
        unique_name: get(&rec, &["unique name"]),
        role: get(&rec, &["role"]),
        edition: get(&rec, &["edition"]),
        release,
        rac: yes_no(rec.get("rac")),
        cdb: yes_no(rec.get("cdb")),
        containers: Vec::new(),
        size_on_disk: None,
    };
    let id = |k: &str| {
        get(&rec, &[k])
            .and_then(|s| s.replace(',', "").parse::<u64>().ok())
            .unwrap_or(0)
    };
    let snaps = Snapshots {
        begin_id: id("begin"),
        end_id: id("end"),
        begin_time,
        end_time,
        elapsed_min: get(&rec, &["elapsed time"]).and_then(|s| num::minutes(&s)),
        elapsed_decimals: get(&rec, &["elapsed time"]).map(|s| num::decimals(&s)),
        db_time_min: get(&rec, &["db time"]).and_then(|s| num::minutes(&s)),
    };
    if snaps.begin_id == 0 || snaps.end_id == 0 {
        return Err(ParseError::section(
            "Database Summary",
            Some(line),
            "numeric Begin and End snapshot ids",
            "none",
        ));
    }
    Ok((db, instances, snaps))
}
