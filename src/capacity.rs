//! Data capacity per database or host: `--capacity SIZE` for every subject, or
//! `--capacity-file FILE` (a CSV, one row per database or host) and `--horizon DURATION` for
//! growth. See `docs/capacity.md` and `scripts/capacity.sql`, which writes the CSV from a
//! database's own views.
//!
//! Flow: [`CapacityFile::read`] parses the CSV (by header names) into entries and refused rows;
//! each subject's analysis asks [`resolve`] for its size ([`CapacityUsed`], or none: sized
//! performance-only); after the run, [`CapacityFile::unmatched`] names the entries no subject
//! used. The rules see only the resulting GiB (`Demand::capacity_gib`).
//!
//! Growth is compound: `size × (1 + growth_pct_per_year / 100) ^ years`, with `years` the row's
//! own `horizon` (or `retention`) or else `--horizon`; no growth rate, or no horizon, keeps the
//! size as given.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// The longest leading part of `s` (trimmed) that reads as a number, and the rest as its unit,
/// trimmed and lower case: `2TiB` → (2, `tib`), `0.5 TiB` → (0.5, `tib`), `1e3` → (1000, ``).
/// `None` when no leading part is a number.
pub fn number_and_unit(s: &str) -> Option<(f64, String)> {
    let t = s.trim();
    let split = (1..=t.len())
        .rev()
        .filter(|&i| t.is_char_boundary(i))
        .find(|&i| t[..i].trim().parse::<f64>().is_ok())?;
    let (num, unit) = t.split_at(split);
    Some((num.trim().parse().ok()?, unit.trim().to_ascii_lowercase()))
}

/// Bytes per unit of a size (lower case, as [`number_and_unit`] gives it): `b` is 1; `k`, `ki`,
/// `kib` … `p`, `pi`, `pib` are powers of 1024; `kb` … `pb` powers of 1000. `None` for any other
/// unit (a bare number has no unit: its callers say what it means).
pub fn unit_bytes(unit: &str) -> Option<f64> {
    Some(match unit {
        "b" => 1.0,
        "k" | "ki" | "kib" => 1024f64,
        "m" | "mi" | "mib" => 1024f64.powi(2),
        "g" | "gi" | "gib" => 1024f64.powi(3),
        "t" | "ti" | "tib" => 1024f64.powi(4),
        "p" | "pi" | "pib" => 1024f64.powi(5),
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        "pb" => 1e15,
        _ => return None,
    })
}

/// Sizes with their units, in GiB: a bare number is GiB; `MiB`, `GiB`, `TiB`, `PiB` (and `M`,
/// `G`, `T`, `P`) are powers of 1024, `MB`, `GB`, `TB`, `PB` powers of 1000 (the units of
/// [`unit_bytes`]).
///
/// # Errors
/// A message naming the text and what was expected (an unknown unit, a size ≤ 0 or not a
/// number).
pub fn parse_size(s: &str) -> Result<f64, String> {
    let (v, unit) = number_and_unit(s)
        .ok_or_else(|| format!("expected a size such as 2048, 500GiB or 2TiB, got \"{s}\""))?;
    let bytes_per = match unit.as_str() {
        "" => 1024f64.powi(3),
        u => unit_bytes(u).ok_or_else(|| {
            format!("unknown unit \"{u}\" (use MiB, GiB, TiB, PiB or MB, GB, TB, PB)")
        })?,
    };
    let gib = v * bytes_per / 1024f64.powi(3);
    if !gib.is_finite() || gib <= 0.0 {
        return Err(format!("must be a size > 0, got \"{s}\""));
    }
    Ok(gib)
}

/// A duration in years: `3y`, `18m` (months), `2.5y`, `104w` (weeks), `730d`; a bare number is
/// years.
///
/// # Errors
/// A message naming the text (an unknown unit, a negative or non-finite number).
pub fn parse_years(s: &str) -> Result<f64, String> {
    let (v, unit) = number_and_unit(s)
        .ok_or_else(|| format!("expected a duration such as 3y, 18m or 730d, got \"{s}\""))?;
    let years = match unit.as_str() {
        "" | "y" | "yr" | "yrs" | "year" | "years" => v,
        "m" | "mo" | "month" | "months" => v / 12.0,
        "w" | "wk" | "week" | "weeks" => v * 7.0 / 365.25,
        "d" | "day" | "days" => v / 365.25,
        u => {
            return Err(format!(
                "unknown unit \"{u}\" in \"{s}\" (use y, m, w or d: 3y, 18m)"
            ))
        }
    };
    if !years.is_finite() || years < 0.0 {
        return Err(format!("must be a duration ≥ 0, got \"{s}\""));
    }
    Ok(years)
}

/// What a row's key names: a DB Id (digits), `NAME@HOST`, or a name (a DB name or a host name).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    DbId(u64),
    NameAtHost(String, String),
    Name(String),
}

impl Key {
    fn parse(s: &str) -> Option<Key> {
        let t = s.trim();
        if t.is_empty() {
            return None;
        }
        if t.bytes().all(|b| b.is_ascii_digit()) {
            return t.parse().ok().map(Key::DbId);
        }
        Some(match t.split_once('@') {
            Some((n, h)) if !n.is_empty() && !h.is_empty() => {
                Key::NameAtHost(n.to_ascii_lowercase(), h.to_ascii_lowercase())
            }
            _ => Key::Name(t.to_ascii_lowercase()),
        })
    }
}

/// One accepted row.
#[derive(Debug, Clone)]
struct Entry {
    key: Key,
    key_text: String,
    line: usize,
    gib: f64,
    growth_pct_per_year: Option<f64>,
    horizon_years: Option<f64>,
}

/// A row refused: its line and why.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RefusedRow {
    /// Line in the file (1 = the header).
    pub line: usize,
    /// Why (an unknown unit, a negative size, a duplicate key, a key no subject matched, …).
    pub reason: String,
}

/// A `--capacity-file`: its accepted rows by key and the rows it refused.
#[derive(Debug, Clone)]
pub struct CapacityFile {
    /// The path as given.
    pub path: PathBuf,
    entries: Vec<Entry>,
    index: HashMap<Key, usize>,
    /// Rows refused while reading (a bad unit, a duplicate key, …).
    pub refused: Vec<RefusedRow>,
}

/// Why a capacity file could not be read at all (rows are refused one by one instead).
#[derive(Debug, thiserror::Error)]
pub enum CapacityFileError {
    /// Not readable.
    #[error("--capacity-file {}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The header lacks a required column.
    #[error("--capacity-file {}: line 1: expected a header naming the columns `key` and `size` (optional: growth_pct_per_year, horizon or retention), found {found}", path.display())]
    Header {
        /// The path.
        path: PathBuf,
        /// The header as read.
        found: String,
    },
}

impl CapacityFile {
    /// Reads the CSV at `path` (columns by header name, case-insensitive: `key`, `size`, and
    /// optionally `growth_pct_per_year`, `horizon` or `retention`; `#` lines are comments).
    ///
    /// # Errors
    /// [`CapacityFileError`] when the file cannot be read or its header has no `key` or `size`
    /// column. A bad row is refused ([`CapacityFile::refused`]), never an error of the file.
    pub fn read(path: &Path) -> Result<CapacityFile, CapacityFileError> {
        let text = std::fs::read_to_string(path).map_err(|source| CapacityFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_text(path, &text)
    }

    /// As [`CapacityFile::read`], from the text of the file.
    ///
    /// # Errors
    /// As [`CapacityFile::read`].
    pub fn from_text(path: &Path, text: &str) -> Result<CapacityFile, CapacityFileError> {
        let mut rdr = csv::ReaderBuilder::new()
            .comment(Some(b'#'))
            .flexible(true)
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let header_err = |found: String| CapacityFileError::Header {
            path: path.to_path_buf(),
            found,
        };
        let headers: Vec<String> = rdr
            .headers()
            .map_err(|e| header_err(e.to_string()))?
            .iter()
            .map(|h| h.to_ascii_lowercase())
            .collect();
        let col = |names: &[&str]| headers.iter().position(|h| names.contains(&h.as_str()));
        let (Some(k), Some(sz)) = (col(&["key"]), col(&["size"])) else {
            return Err(header_err(format!("'{}'", headers.join(","))));
        };
        let growth = col(&["growth_pct_per_year"]);
        let horizon = col(&["horizon", "retention"]);
        let mut file = CapacityFile {
            path: path.to_path_buf(),
            entries: Vec::new(),
            index: HashMap::new(),
            refused: Vec::new(),
        };
        for rec in rdr.records() {
            let rec = match rec {
                Ok(r) => r,
                Err(e) => {
                    let line = e.position().map_or(0, |p| p.line() as usize);
                    file.refused.push(RefusedRow {
                        line,
                        reason: format!("not a CSV row: {e}"),
                    });
                    continue;
                }
            };
            let line = rec.position().map_or(0, |p| p.line() as usize);
            match file.row(&rec, k, sz, growth, horizon, line) {
                Ok(e) => {
                    if let Some(&first) = file.index.get(&e.key) {
                        file.refused.push(RefusedRow {
                            line,
                            reason: format!(
                                "duplicate key \"{}\" (first on line {}): row refused",
                                e.key_text, file.entries[first].line
                            ),
                        });
                        continue;
                    }
                    file.index.insert(e.key.clone(), file.entries.len());
                    file.entries.push(e);
                }
                Err(reason) => file.refused.push(RefusedRow { line, reason }),
            }
        }
        Ok(file)
    }

    fn row(
        &self,
        rec: &csv::StringRecord,
        k: usize,
        sz: usize,
        growth: Option<usize>,
        horizon: Option<usize>,
        line: usize,
    ) -> Result<Entry, String> {
        let cell = |i: usize| rec.get(i).unwrap_or("");
        let key_text = cell(k).to_string();
        let key = Key::parse(&key_text).ok_or_else(|| {
            "empty key: expected a DB name, a DB Id, NAME@HOST or a host name".to_string()
        })?;
        let gib = parse_size(cell(sz)).map_err(|e| format!("size: {e}: row refused"))?;
        let opt = |i: Option<usize>| i.map(cell).filter(|c| !c.is_empty());
        let growth_pct_per_year = match opt(growth) {
            Some(g) => {
                let v: f64 = g.trim_end_matches('%').trim().parse().map_err(|_| {
                    format!("growth_pct_per_year: expected a percentage such as 12, got \"{g}\": row refused")
                })?;
                if !v.is_finite() || v <= -100.0 {
                    return Err(format!(
                        "growth_pct_per_year: must be a finite percentage above -100, got \"{g}\": row refused"
                    ));
                }
                Some(v)
            }
            None => None,
        };
        let horizon_years = match opt(horizon) {
            Some(h) => Some(parse_years(h).map_err(|e| format!("horizon: {e}: row refused"))?),
            None => None,
        };
        Ok(Entry {
            key,
            key_text,
            line,
            gib,
            growth_pct_per_year,
            horizon_years,
        })
    }

    fn find(&self, keys: &[Key]) -> Option<&Entry> {
        keys.iter()
            .find_map(|k| self.index.get(k))
            .map(|&i| &self.entries[i])
    }

    /// The accepted rows that no subject of `used` (the lines [`resolve`] matched) matched:
    /// each a refused row, "a key that matches nothing".
    pub fn unmatched(&self, used: &[usize]) -> Vec<RefusedRow> {
        self.entries
            .iter()
            .filter(|e| !used.contains(&e.line))
            .map(|e| RefusedRow {
                line: e.line,
                reason: format!(
                    "key \"{}\" matches no database or host of this run: row not used",
                    e.key_text
                ),
            })
            .collect()
    }

    /// Rows read and accepted.
    pub fn accepted(&self) -> usize {
        self.entries.len()
    }
}

/// The subject whose size is looked up.
pub enum Subject<'a> {
    /// A database: its name, DB Id and the hosts of its instances.
    Database {
        /// DB name.
        name: &'a str,
        /// DB Id.
        db_id: Option<u64>,
        /// Host names of its instances.
        hosts: &'a [String],
    },
    /// A host of OS disk logs.
    Host {
        /// Host name.
        name: &'a str,
    },
}

/// The size a subject was sized with, and where it came from.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CapacityUsed {
    /// The size used, GiB (2^30 bytes): `base_gib` grown to the horizon.
    pub gib: f64,
    /// The size as given, GiB.
    pub base_gib: f64,
    /// Growth, % per year (compound), when given.
    pub growth_pct_per_year: Option<f64>,
    /// Years grown (the row's horizon, else `--horizon`), when growth applies.
    pub horizon_years: Option<f64>,
    /// Where the size came from: `--capacity`, or `FILE line N, key K`.
    pub source: String,
    /// The matched line of the capacity file (`None` for `--capacity`).
    pub line: Option<usize>,
}

/// A subject's capacity: the size used, or `missing_from_file` when a capacity file was given
/// and has no row for it (it is then sized performance-only, and the fleet summary flags it).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct CapacityInfo {
    /// The size used, when known.
    pub used: Option<CapacityUsed>,
    /// A `--capacity-file` was given and has no row for this subject.
    pub missing_from_file: bool,
}

/// What [`resolve`] looks in: `--capacity-file`, `--capacity` (GiB) and `--horizon` (years).
#[derive(Clone, Copy, Default)]
pub struct Given<'a> {
    /// `--capacity-file`.
    pub file: Option<&'a CapacityFile>,
    /// `--capacity`, GiB.
    pub capacity_gib: Option<f64>,
    /// `--horizon`, years.
    pub horizon_years: Option<f64>,
}

/// The capacity of `subject`: its row of `--capacity-file` (by DB Id, then `NAME@HOST`, then
/// the DB name; a host by its name), grown to the horizon; else `--capacity`; else none.
pub fn resolve(settings: Given<'_>, subject: Subject<'_>) -> CapacityInfo {
    if let Some(file) = settings.file {
        let keys: Vec<Key> = match subject {
            Subject::Database { name, db_id, hosts } => {
                let n = name.to_ascii_lowercase();
                let mut k: Vec<Key> = db_id.map(Key::DbId).into_iter().collect();
                k.extend(
                    hosts
                        .iter()
                        .map(|h| Key::NameAtHost(n.clone(), h.to_ascii_lowercase())),
                );
                k.push(Key::Name(n));
                k
            }
            Subject::Host { name } => vec![Key::Name(name.to_ascii_lowercase())],
        };
        return match file.find(&keys) {
            Some(e) => {
                let years = e.horizon_years.or(settings.horizon_years);
                let grown = match (e.growth_pct_per_year, years) {
                    (Some(g), Some(y)) => e.gib * (1.0 + g / 100.0).powf(y),
                    _ => e.gib,
                };
                CapacityInfo {
                    used: Some(CapacityUsed {
                        gib: grown,
                        base_gib: e.gib,
                        growth_pct_per_year: e.growth_pct_per_year,
                        horizon_years: e.growth_pct_per_year.and(years),
                        source: format!(
                            "{} line {}, key {}",
                            file.path.display(),
                            e.line,
                            e.key_text
                        ),
                        line: Some(e.line),
                    }),
                    missing_from_file: false,
                }
            }
            None => CapacityInfo {
                used: None,
                missing_from_file: true,
            },
        };
    }
    CapacityInfo {
        used: settings.capacity_gib.map(|g| CapacityUsed {
            gib: g,
            base_gib: g,
            growth_pct_per_year: None,
            horizon_years: None,
            source: "--capacity".into(),
            line: None,
        }),
        missing_from_file: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> CapacityFile {
        CapacityFile::from_text(Path::new("caps.csv"), text).expect("a header")
    }

    #[test]
    fn rows_are_read_by_header_and_bad_ones_refused_with_their_line() {
        let f = file(
            "# sizes from dba_data_files\n\
             size,key,growth_pct_per_year,horizon\n\
             2TiB,XYDB,10,3y\n\
             500GB,1932768254,,\n\
             1 furlongs,BAD1,,\n\
             -5GiB,BAD2,,\n\
             1TiB,xydb,,\n\
             100,ORCL@db01.example.com,abc,\n\
             100,host07,5,18m\n",
        );
        assert_eq!(f.accepted(), 3, "{:?}", f.refused);
        let lines: Vec<usize> = f.refused.iter().map(|r| r.line).collect();
        // Line 1 is the comment, 2 the header, 3 the first row.
        assert_eq!(lines, [5, 6, 7, 8], "{:?}", f.refused);
        assert!(f.refused[0].reason.contains("unknown unit \"furlongs\""));
        assert!(f.refused[1].reason.contains("must be a size > 0"));
        assert!(f.refused[2]
            .reason
            .contains("duplicate key \"xydb\" (first on line 3)"));
        assert!(f.refused[3].reason.contains("growth_pct_per_year"));
        // A key that nothing used.
        let u = f.unmatched(&[3, 4]);
        assert_eq!(u.len(), 1);
        assert_eq!(u[0].line, 9);
    }

    #[test]
    fn growth_is_compound_to_the_row_horizon_or_the_global_one() {
        let f = file(
            "key,size,growth_pct_per_year,horizon\nXYDB,1000,10,3y\nDB2,1000,10,\nDB3,1000,,2y\n",
        );
        let mut s = Given {
            file: Some(&f),
            ..Default::default()
        };
        let db = |name: &'static str| Subject::Database {
            name,
            db_id: None,
            hosts: &[],
        };
        // 1,000 × 1.1^3 = 1,331 GiB.
        let u = resolve(s, db("xydb")).used.unwrap();
        assert!((u.gib - 1331.0).abs() < 1e-9, "{u:?}");
        assert_eq!(u.source, "caps.csv line 2, key XYDB");
        // No horizon: the size as given; with --horizon 2y: 1,000 × 1.1^2 = 1,210.
        assert_eq!(resolve(s, db("DB2")).used.unwrap().gib, 1000.0);
        s.horizon_years = Some(2.0);
        assert!((resolve(s, db("DB2")).used.unwrap().gib - 1210.0).abs() < 1e-9);
        // A horizon without growth keeps the size.
        assert_eq!(resolve(s, db("DB3")).used.unwrap().gib, 1000.0);
        // Not in the file: performance-only, flagged.
        let m = resolve(s, db("OTHER"));
        assert_eq!((m.used, m.missing_from_file), (None, true));
    }

    #[test]
    fn keys_match_db_id_then_name_at_host_then_name() {
        let f = file("key,size\nORCL,100\nORCL@db02,200\n99,300\n");
        let s = Given {
            file: Some(&f),
            ..Default::default()
        };
        let hosts = ["DB02".to_string()];
        let gib = |id: Option<u64>, hosts: &[String]| {
            resolve(
                s,
                Subject::Database {
                    name: "orcl",
                    db_id: id,
                    hosts,
                },
            )
            .used
            .unwrap()
            .gib
        };
        assert_eq!(gib(Some(99), &hosts), 300.0);
        assert_eq!(gib(Some(1), &hosts), 200.0);
        assert_eq!(gib(None, &[]), 100.0);
    }

    #[test]
    fn sizes_and_durations_with_units() {
        assert_eq!(parse_size("2048"), Ok(2048.0));
        assert_eq!(parse_size("2TiB"), Ok(2048.0));
        assert_eq!(parse_size("0.5 TiB"), Ok(512.0));
        assert!((parse_size("500GB").unwrap() - 465.66128730773926).abs() < 1e-9);
        assert!(parse_size("0").unwrap_err().contains("> 0"));
        assert_eq!(parse_years("3y"), Ok(3.0));
        assert_eq!(parse_years("18m"), Ok(1.5));
        assert_eq!(parse_years("2"), Ok(2.0));
        assert!(parse_years("3 fortnights").is_err());
    }
}
