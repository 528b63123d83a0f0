//! `--shard K/N`: a deterministic share of the inputs, so that N machines (or N jobs of any
//! scheduler) each read one share and export its rows, and `--from-export` merges the shares into
//! the answer of one run (`docs/scale.md`).
//!
//! Flow: the CLI discovers the inputs as for any run ([`crate::pipeline::discover_with`]), then
//! [`Shard::select`] keeps the inputs whose [`InputKey`] hashes to share K. The key of a file is
//! its path relative to the root it was found under (`awr/db1_100_101.html` for
//! `sizer analyze /data/fleet` finding `/data/fleet/awr/db1_100_101.html`), with `/` between
//! components, or its file name when the file is named on the command line. The hash is 64-bit
//! FNV-1a ([`fnv1a64`]) of that key's UTF-8 bytes, so the same file lands in the same share on
//! any machine and under any mount point: the share of a file is `fnv1a64(key) mod N`, plus 1.
//!
//! The key also orders a merge: a run reads its inputs root by root, each root's files in path
//! order ([`crate::pipeline::discover`]), and [`InputKey`]'s order (root index, then the
//! relative path component by component) is that order, so `--from-export` sees the reports in
//! the order one run over all inputs would have read them, and keeps the same one of two
//! duplicates.

use std::path::{Component, Path, PathBuf};

use crate::pipeline::{Failure, Input};

/// Where an input sits among the paths given: the index of the root it was found under, and its
/// path relative to that root (`/`-separated; the file name for a file named directly).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct InputKey {
    /// Index of the command-line path the file was named as or found under.
    pub root: u32,
    /// The path relative to that root, components joined by `/`; for a file named on the
    /// command line, its file name.
    pub relative: String,
}

impl InputKey {
    /// The key of `path` among `roots` (the paths given on the command line, in order): the
    /// first root that is `path` itself or a directory holding it; a path under no root (not
    /// expected) is its own root, after the others.
    pub fn of(roots: &[PathBuf], path: &Path) -> InputKey {
        for (i, r) in roots.iter().enumerate() {
            if path == r {
                // A file named directly is keyed by its name; a directory root met as an entry
                // of its own walk (a link given as the root) sorts before its files, as the walk
                // yields it first.
                return InputKey {
                    root: i as u32,
                    relative: if path.is_dir() {
                        String::new()
                    } else {
                        file_name(path)
                    },
                };
            }
            if let Ok(rel) = path.strip_prefix(r) {
                if !rel.as_os_str().is_empty() {
                    return InputKey {
                        root: i as u32,
                        relative: slashed(rel),
                    };
                }
            }
        }
        InputKey {
            root: roots.len() as u32,
            relative: slashed(path),
        }
    }

    /// The order of two keys as one run reads the files: by root, then component by component
    /// (as a directory walk sorted by file name visits them: `a/b` before `a-c`).
    pub fn cmp_run_order(&self, other: &InputKey) -> std::cmp::Ordering {
        self.root.cmp(&other.root).then_with(|| {
            Path::new(&self.relative)
                .components()
                .cmp(Path::new(&other.relative).components())
        })
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| slashed(p))
}

/// `p`'s normal components joined by `/` (no `.`, no leading `/`), so the key is the same on
/// every platform and under every mount point.
fn slashed(p: &Path) -> String {
    p.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            Component::ParentDir => Some("..".into()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// 64-bit FNV-1a of `bytes` (offset basis 0xcbf29ce484222325, prime 0x100000001b3: Fowler, Noll
/// and Vo, <http://www.isthe.com/chongo/tech/comp/fnv/>). Stable across machines, builds and
/// releases, unlike the standard library's hasher.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Share `k` of `n` (1 ≤ k ≤ n), as `--shard K/N` gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This share, 1-based.
    pub k: u32,
    /// Number of shares.
    pub n: u32,
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N` with 1 ≤ K ≤ N (`2/8`).
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("expected K/N with 1 ≤ K ≤ N (as 2/8), got '{s}'");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u32 = k.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl Shard {
    /// Whether the file of `key` is in this share: `fnv1a64(key.relative) mod n == k − 1`.
    pub fn holds(&self, key: &InputKey) -> bool {
        fnv1a64(key.relative.as_bytes()) % u64::from(self.n) == u64::from(self.k - 1)
    }

    /// The inputs and discovery failures of this share, in their order (standard input is in
    /// share 1 only).
    pub fn select(
        &self,
        roots: &[PathBuf],
        inputs: Vec<Input>,
        failures: Vec<Failure>,
    ) -> (Vec<Input>, Vec<Failure>) {
        let inputs = inputs
            .into_iter()
            .filter(|i| match i.kind {
                crate::pipeline::InputKind::Stdin => self.k == 1,
                _ => self.holds(&InputKey::of(roots, &i.path)),
            })
            .collect();
        let failures = failures
            .into_iter()
            .filter(|f| self.holds(&InputKey::of(roots, Path::new(&f.file))))
            .collect();
        (inputs, failures)
    }
}

/// The inputs named in `list` (`--files-from`: one path a line; blank lines and lines starting
/// with `#` ignored), each a file under `root` (a path relative to it, or one that starts with
/// it), read as if found in `root`: keyed relative to it ([`InputKey`], so a merge orders and
/// shares them as one run over `root` would), and skipped rather than failed when not a report.
/// A line that names no file under `root` is a [`Failure`].
pub fn inputs_from_list(root: &Path, list: &str) -> (Vec<Input>, Vec<Failure>) {
    let mut inputs = Vec::new();
    let mut failures = Vec::new();
    for line in list.lines() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let p = Path::new(line);
        let path = if p.starts_with(root) {
            p.to_path_buf()
        } else if p.is_relative() {
            root.join(p)
        } else {
            failures.push(Failure {
                file: line.to_string(),
                error: format!("--files-from: not under {}", root.display()),
                cause: None,
            });
            continue;
        };
        inputs.push(Input {
            path,
            explicit: false,
            kind: crate::pipeline::InputKind::File,
        });
    }
    (inputs, failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // FNV-1a 64 test vectors (the FNV page's test suite): "" and "a", "foobar".
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn keys_are_relative_to_their_root_and_order_as_a_sorted_walk() {
        let roots = [PathBuf::from("/data/fleet"), PathBuf::from("one.html")];
        let k = InputKey::of(&roots, Path::new("/data/fleet/awr/db1.html"));
        assert_eq!((k.root, k.relative.as_str()), (0, "awr/db1.html"));
        let k = InputKey::of(&roots, Path::new("one.html"));
        assert_eq!((k.root, k.relative.as_str()), (1, "one.html"));
        // Another mount point, the same key: the same share.
        let there = InputKey::of(
            &[PathBuf::from("/mnt/x/fleet")],
            Path::new("/mnt/x/fleet/awr/db1.html"),
        );
        assert_eq!(there.relative, "awr/db1.html");
        // `a/b` before `a-c`, as walkdir visits them ('-' sorts before '/' as text).
        let a = |r: &str| InputKey {
            root: 0,
            relative: r.into(),
        };
        assert!(a("a/b").cmp_run_order(&a("a-c")).is_lt());
        assert!(a("a-c") < a("a/b"));
    }

    #[test]
    fn shard_specs_and_shares() {
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { k: 2, n: 8 }));
        for bad in ["0/2", "3/2", "1/0", "x", "1/", "/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        // Every key is in exactly one of the shares.
        let keys: Vec<InputKey> = (0..200)
            .map(|i| InputKey {
                root: 0,
                relative: format!("awr/db{i}.html"),
            })
            .collect();
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { k, n: 3 }).collect();
        let mut counts = [0; 3];
        for key in &keys {
            let held: Vec<usize> = (0..3).filter(|&s| shards[s].holds(key)).collect();
            assert_eq!(held.len(), 1);
            counts[held[0]] += 1;
        }
        // Spread, not all in one share.
        assert!(counts.iter().all(|&c| c > 40), "{counts:?}");
    }
}
