//! Loading the rule files: the built-in TOML texts, a `--rules DIR` copy, and the errors of a
//! bad file ([`RulesError`], which keep their text: they are errors, not findings).

use std::path::{Path, PathBuf};

use super::demand::IopsFormula;
use super::schema::{self, Catalog, Rule, SizingPolicy, Tier};
use super::vsan;

/// Text of the built-in tier catalogue (`rules/tiers.toml`), e.g. for
/// `sizer` to write out as a starting point for `--rules DIR`.
pub const BUILTIN_TIERS_TOML: &str = include_str!("../../rules/tiers.toml");
/// Text of the built-in sizing policy and rules (`rules/sizing.toml`).
pub const BUILTIN_SIZING_TOML: &str = include_str!("../../rules/sizing.toml");

/// Error loading or validating rule files. Every variant names the file; TOML
/// errors also give the 1-based line and column and, when it can be found,
/// the dotted key (`tier[2].price.gib_month`, array indexes 0-based).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// A file could not be read.
    #[error("{}: cannot read: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A rules file is larger than the cap (`--max-rules-size`, [`DEFAULT_MAX_RULES_SIZE`]):
    /// refused before it is read (a 56 MB file used 7.4 GB to parse).
    #[error("{}: more than the cap of {} bytes for a rules file (--max-rules-size); the built-in rules are about 120 KB", .path.display(), .limit)]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The cap, bytes.
        limit: u64,
    },
    /// The file is not valid TOML or does not match the schema (unknown key,
    /// wrong type, missing field).
    #[error("{file}:{line}:{column}: {}{message}", KeyPrefix(.key))]
    Toml {
        /// File name (or `<built-in>/rules/...`).
        file: String,
        /// Dotted key at the error position, when found.
        key: Option<String>,
        /// 1-based line (0 = unknown).
        line: usize,
        /// 1-based column (0 = unknown).
        column: usize,
        /// Parser message.
        message: String,
    },
    /// A value is out of range, missing for its model, unsourced, or refers to
    /// something that does not exist.
    #[error("{file}: at `{key}`: {message}")]
    Invalid {
        /// File name.
        file: String,
        /// Dotted key.
        key: String,
        /// What is wrong.
        message: String,
    },
}

/// `at `key`: ` before a TOML error message, when the key is known (error text, not a finding).
struct KeyPrefix<'a>(&'a Option<String>);

impl std::fmt::Display for KeyPrefix<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(k) => write!(f, "at `{k}`: "),
            None => Ok(()),
        }
    }
}

/// Default cap on one rules file, bytes: 16 MiB, over 100 times the built-in `tiers.toml`
/// (about 90 KB); a TOML file costs many times its size to parse.
pub const DEFAULT_MAX_RULES_SIZE: u64 = 16 << 20;

thread_local! {
    /// The cap [`read_rules_file`] applies ([`RuleSet::load_limited`] sets it for one load).
    static MAX_RULES: std::cell::Cell<u64> = const { std::cell::Cell::new(DEFAULT_MAX_RULES_SIZE) };
}

/// Reads one rules file, at most the current cap ([`MAX_RULES`]).
fn read_rules_file(path: &Path) -> Result<String, RulesError> {
    use std::io::Read;
    let limit = MAX_RULES.with(|m| m.get());
    let read = |source| RulesError::Read {
        path: path.to_path_buf(),
        source,
    };
    let f = std::fs::File::open(path).map_err(read)?;
    let too_large = || RulesError::TooLarge {
        path: path.to_path_buf(),
        limit,
    };
    if f.metadata().map_err(read)?.len() > limit {
        return Err(too_large());
    }
    let mut text = String::new();
    f.take(limit + 1).read_to_string(&mut text).map_err(read)?;
    if text.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(text)
}

/// Parsed and validated `tiers.toml` + `sizing.toml`.
#[derive(Debug, Clone)]
pub struct RuleSet {
    pub(super) catalog: Catalog,
    pub(super) sizing: SizingPolicy,
    pub(super) vsan: vsan::VsanRules,
    pub(super) origin: String,
}

impl RuleSet {
    /// The rules embedded in the binary (`rules/tiers.toml`, `rules/sizing.toml`).
    pub fn builtin() -> Result<RuleSet, RulesError> {
        RuleSet::from_toml_strs(
            BUILTIN_TIERS_TOML,
            "<built-in>/rules/tiers.toml",
            BUILTIN_SIZING_TOML,
            "<built-in>/rules/sizing.toml",
        )
        .map(|r| r.with_origin("built-in"))
    }

    /// [`RuleSet::load`] with every rules file read capped at `max_bytes`
    /// ([`RulesError::TooLarge`] past it, checked before the file is read and while it is).
    pub fn load_limited(path: &Path, max_bytes: u64) -> Result<RuleSet, RulesError> {
        MAX_RULES.with(|m| m.set(max_bytes));
        let r = RuleSet::load(path);
        MAX_RULES.with(|m| m.set(DEFAULT_MAX_RULES_SIZE));
        r
    }

    /// Load `DIR/tiers.toml` and `DIR/sizing.toml` (both required; start from
    /// copies of [`BUILTIN_TIERS_TOML`] and [`BUILTIN_SIZING_TOML`]). Errors
    /// name the file and the TOML key.
    pub fn load_dir(dir: &Path) -> Result<RuleSet, RulesError> {
        let read = |name: &str| {
            let path = dir.join(name);
            read_rules_file(&path).map(|text| (text, path.display().to_string()))
        };
        let (tiers, tiers_file) = read("tiers.toml")?;
        let (sizing, sizing_file) = read("sizing.toml")?;
        let mut r = RuleSet::from_toml_strs(&tiers, &tiers_file, &sizing, &sizing_file)?
            .with_origin(&dir.display().to_string());
        // vsan.toml is optional in a rules directory: the built-in one otherwise.
        if dir.join("vsan.toml").exists() {
            let (text, file) = read("vsan.toml")?;
            r.vsan = vsan::VsanRules::parse(&text, &file).map_err(|message| RulesError::Toml {
                file,
                key: None,
                line: 0,
                column: 0,
                message,
            })?;
        }
        Ok(r)
    }

    /// Load rules from `path`: a directory (as [`RuleSet::load_dir`]), or one TOML file that
    /// replaces its built-in counterpart: a tier catalogue (it has `[[tier]]` or
    /// `[[platform]]`) or a sizing policy (it has `[required_iops]`). Errors name the file.
    pub fn load(path: &Path) -> Result<RuleSet, RulesError> {
        if path.is_dir() {
            return RuleSet::load_dir(path);
        }
        let text = read_rules_file(path)?;
        let file = path.display().to_string();
        let table: toml::Table = schema::parse_toml(&text, &file)?;
        let r = if table.contains_key("tier") || table.contains_key("platform") {
            RuleSet::from_toml_strs(
                &text,
                &file,
                BUILTIN_SIZING_TOML,
                "<built-in>/rules/sizing.toml",
            )
        } else if table.contains_key("required_iops") {
            RuleSet::from_toml_strs(
                BUILTIN_TIERS_TOML,
                "<built-in>/rules/tiers.toml",
                &text,
                &file,
            )
        } else {
            Err(RulesError::Invalid {
                file: file.clone(),
                key: "(file)".to_string(),
                message: "neither a tier catalogue ([[tier]], [[platform]]) nor a sizing policy ([required_iops]); give one of those files or a directory holding tiers.toml and sizing.toml".to_string(),
            })
        }?;
        Ok(r.with_origin(&file))
    }

    /// Parse rule files from strings; `*_file` name them in errors.
    pub fn from_toml_strs(
        tiers_toml: &str,
        tiers_file: &str,
        sizing_toml: &str,
        sizing_file: &str,
    ) -> Result<RuleSet, RulesError> {
        let catalog = schema::parse_catalog(tiers_toml, tiers_file)?;
        let sizing = schema::parse_sizing(sizing_toml, sizing_file)?;
        schema::check_targets(&sizing, &catalog, sizing_file)?;
        Ok(RuleSet {
            catalog,
            sizing,
            vsan: vsan::VsanRules::builtin(),
            origin: format!("{tiers_file} + {sizing_file}"),
        })
    }

    /// vSAN storage policies and advice thresholds (`vsan.toml`).
    pub fn vsan(&self) -> &vsan::VsanRules {
        &self.vsan
    }

    fn with_origin(mut self, origin: &str) -> RuleSet {
        self.origin = origin.to_string();
        self
    }

    /// Which terms make "required IOPS" (`[required_iops]` of sizing.toml).
    pub fn required_iops_formula(&self) -> &IopsFormula {
        &self.sizing.required_iops
    }

    /// Default headroom, percent (`[headroom].default_pct`, e.g. 30).
    pub fn default_headroom_pct(&self) -> f64 {
        self.sizing.headroom.default_pct
    }

    /// The tier catalogue.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The sizing policy and rules.
    pub fn sizing(&self) -> &SizingPolicy {
        &self.sizing
    }

    /// Tiers in file order.
    pub fn tiers(&self) -> &[Tier] {
        &self.catalog.tiers
    }

    /// Rules in file order.
    pub fn rules(&self) -> &[Rule] {
        &self.sizing.rules
    }

    /// `as_of` of the tier catalogue (prices and limits).
    pub fn catalog_as_of(&self) -> &str {
        &self.catalog.meta.as_of
    }

    /// Where the rules came from: `built-in` or the directory.
    pub fn origin(&self) -> &str {
        &self.origin
    }
}
