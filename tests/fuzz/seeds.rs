//! The seeds: real files of each format, read from disk at run time (never copied into the
//! project). Every file of `../shared/corpus/` and `fixtures/` is decoded (gunzipped, UTF-16 to
//! UTF-8; a DMA zip archive is kept as its bytes) and detected once per process; each format then gets its smallest few files from
//! each tree, so that a case stays fast while the seeds still differ in layout.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use sizer_parsers::Format;

/// Files larger than this (decoded) are seeds only when a format has nothing smaller.
const PREFERRED_MAX: usize = 512 * 1024;
/// Seeds taken per format from each of the two trees.
const PER_TREE: usize = 2;

/// One seed: a real file's decoded text.
pub struct Seed {
    /// The path, relative to the project root (`../shared/corpus/...` or `fixtures/...`).
    pub name: String,
    /// The decoded text as UTF-8 bytes.
    pub bytes: Vec<u8>,
}

/// The project root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The corpus folder (`../shared/corpus`).
pub fn corpus_dir() -> PathBuf {
    root().join("../shared/corpus")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| !p.extension().is_some_and(|x| x == "md" || x == "jsonl"))
        .collect();
    v.sort();
    v
}

/// Decoded text and format of one file, or `None` when it is no input of any format.
fn classify(path: &Path) -> Option<(Format, Vec<u8>)> {
    let raw = std::fs::read(path).ok()?;
    if raw.len() > 8 * 1024 * 1024 {
        return None;
    }
    // A container format (the DMA zip archive) is its raw bytes: it is never decoded as text.
    if let Some(p) = sizer_parsers::registry::detect_bytes(&raw) {
        return Some((p.info().format, raw));
    }
    let decoded = sizer_parsers::input::decode(&raw).ok()?;
    let format = sizer_parsers::detect(&decoded.text).ok()?;
    Some((format, decoded.text.into_owned().into_bytes()))
}

type Table = BTreeMap<&'static str, Vec<(bool, Seed)>>;

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t: Table = BTreeMap::new();
        for (corpus, dir) in [(true, corpus_dir()), (false, root().join("fixtures"))] {
            for p in files(&dir) {
                if let Some((format, bytes)) = classify(&p) {
                    let name = p.strip_prefix(root()).unwrap_or(&p).display().to_string();
                    t.entry(format.id())
                        .or_default()
                        .push((corpus, Seed { name, bytes }));
                }
            }
        }
        t
    })
}

/// The seeds of `format`: from each tree its [`PER_TREE`] smallest files that meet every
/// property unmutated, soft ones included (a seed that is idle sizes on 0 IOPS, rightly, and
/// would hide a mutant that sizes an unknown as 0), preferring files up to [`PREFERRED_MAX`];
/// when no file of a tree is clean, its smallest one. Empty when neither tree holds a file of
/// the format. Chosen once per format and process.
pub fn seeds(format: Format) -> Vec<&'static Seed> {
    static CHOSEN: OnceLock<std::sync::Mutex<BTreeMap<&'static str, Vec<&'static Seed>>>> =
        OnceLock::new();
    let chosen = CHOSEN.get_or_init(Default::default);
    if let Some(v) = chosen
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(format.id())
    {
        return v.clone();
    }
    let Some(all) = table().get(format.id()) else {
        return Vec::new();
    };
    let dir = tempfile::Builder::new()
        .prefix("fuzz-seeds-")
        .tempdir()
        .expect("a temporary directory");
    let mut out = Vec::new();
    for corpus in [true, false] {
        let mut tree: Vec<&Seed> = all
            .iter()
            .filter(|(c, _)| *c == corpus)
            .map(|(_, s)| s)
            .collect();
        // Files made to be refused (`bad-*`, `bad/`) come last: a seed should reach the sizing.
        tree.sort_by_key(|s| {
            (
                s.name.contains("bad"),
                s.bytes.len() > PREFERRED_MAX,
                s.bytes.len(),
                s.name.clone(),
            )
        });
        let clean: Vec<&Seed> = tree
            .iter()
            .copied()
            .filter(|s| {
                let mut soft = crate::check::Soft::default();
                let name = Path::new(&s.name).file_name().unwrap_or_default();
                crate::check::case(&dir.path().join(name), &s.bytes, &mut soft).is_ok()
                    && soft.kinds.is_empty()
            })
            .take(PER_TREE)
            .collect();
        if clean.is_empty() {
            out.extend(tree.first().copied());
        } else {
            out.extend(clean);
        }
    }
    chosen
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(format.id(), out.clone());
    out
}
