//! Output files never destroy: they are written atomically, and only where nothing is lost.
//!
//! - [`check_outputs`] refuses, before anything is read, an output path that is one of the inputs
//!   or another output, by identity (same device and inode, so hard links and other spellings of
//!   the same file count), or by name for files not created yet; and an existing output that is
//!   not a regular file (a device node, a FIFO: `-o /dev/full` must not replace `/dev/full`).
//!   Standard output is `-`.
//! - [`AtomicFile`] writes into a temporary file created securely in the target's directory
//!   (the `tempfile` crate: a random name opened with `O_CREAT | O_EXCL`, so a planted symbolic
//!   link is never followed), syncs it and renames it over the target. A failure, or a drop
//!   before [`AtomicFile::commit`], removes the temporary file. An existing target keeps its
//!   permission bits (a 0600 file stays 0600); a new one gets the usual `0666 & !umask`.
//!
//! - A signal that ends the process (`SIGINT`, `SIGTERM`, `SIGHUP`) runs no destructor, so every
//!   temporary file in flight is also in a small registry (one entry per open [`AtomicFile`],
//!   under one mutex); the binary's signal handler calls [`remove_in_flight_and_exit`], which
//!   removes them and exits. Creating a temporary file and renaming it over its target both
//!   happen under the same mutex, so under rayon (`-j N`) a signal leaves either the old target
//!   or the whole new one, and never a temporary file.
//!
//! Reports are rendered straight into the temporary file, so a fleet's output is never held in
//! memory as a whole.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The temporary files of the [`AtomicFile`]s not yet committed or dropped: `(id, path)`.
static IN_FLIGHT: Mutex<Vec<(u64, PathBuf)>> = Mutex::new(Vec::new());

/// The id of the next [`AtomicFile`].
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// The registry, even if a thread panicked while holding it (its entries are still true).
fn in_flight() -> MutexGuard<'static, Vec<(u64, PathBuf)>> {
    IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner())
}

/// The temporary files being written now (for tests and diagnostics).
pub fn in_flight_paths() -> Vec<PathBuf> {
    in_flight().iter().map(|(_, p)| p.clone()).collect()
}

/// Removes every temporary file in flight and ends the process with `code` (128 + the signal
/// number by convention: 130 for `SIGINT`, 143 for `SIGTERM`, 129 for `SIGHUP`). Called by the
/// binary's signal-handling thread, not from a signal handler. The registry stays locked until
/// the process is gone, so no other thread can create or commit a file after the removal; a
/// commit already under way finishes first (the target is then whole).
pub fn remove_in_flight_and_exit(code: i32) -> ! {
    let files = in_flight();
    for (_, p) in files.iter() {
        let _ = std::fs::remove_file(p);
    }
    std::process::exit(code)
}

/// Why an output file could not be written. The message names the path and the cause, in one
/// line.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The target path has no file name (`/`, `..`).
    #[error("{}: not a file name", .0.display())]
    NotAFileName(PathBuf),
    /// Creating, writing, syncing or renaming the file failed.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The target.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// The output exists and is not a regular file.
    #[error("{flag} {}: exists and is not a regular file ({kind}); refusing to replace it (use `-` for standard output)", path.display())]
    NotRegular {
        /// The option that named it (`-o`, `--export`).
        flag: String,
        /// The path.
        path: PathBuf,
        /// `FIFO`, `character device`, `directory`, ….
        kind: &'static str,
    },
    /// The output is one of the inputs.
    #[error("{flag} {} is one of the inputs ({}); refusing to overwrite it", path.display(), input.display())]
    IsAnInput {
        /// The option that named it (`-o`, `--export`, or the derived export name).
        flag: String,
        /// The output path.
        path: PathBuf,
        /// The input it is.
        input: PathBuf,
    },
    /// Two outputs are the same file.
    #[error("{flag} {} and {other_flag} {} are the same file; one would overwrite the other", path.display(), other.display())]
    SameFile {
        /// The first option.
        flag: String,
        /// Its path.
        path: PathBuf,
        /// The second option.
        other_flag: String,
        /// Its path.
        other: PathBuf,
    },
}

impl OutputError {
    fn write(path: &Path, source: io::Error) -> Self {
        OutputError::Write {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// What identifies a file: its device and inode (Unix), else its canonical path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FileId {
    /// Device and inode of an existing file.
    Inode(u64, u64),
    /// A path (canonical directory and file name) for a file that does not exist yet.
    Path(PathBuf),
}

/// The identity of an existing file (following links), or `None` when it cannot be looked at.
pub fn file_id(path: &Path) -> Option<FileId> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some(FileId::Inode(meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        std::fs::canonicalize(path).ok().map(FileId::Path)
    }
}

/// The identity an output will have: the existing file's, or its directory made canonical plus
/// its name (so `out.csv` and `./out.csv` are the same file before either exists).
fn output_id(path: &Path) -> FileId {
    if let Some(id) = file_id(path) {
        return id;
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    FileId::Path(match path.file_name() {
        Some(n) => dir.join(n),
        None => dir,
    })
}

/// What kind of special file `meta` is (`FIFO`, `character device`, `block device`, `socket`,
/// `directory`); `None` for a regular file.
pub fn special_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("FIFO");
        }
        if t.is_char_device() {
            return Some("character device");
        }
        if t.is_block_device() {
            return Some("block device");
        }
        if t.is_socket() {
            return Some("socket");
        }
    }
    Some("special file")
}

/// Checks the outputs (`(flag, path)`: `-o`, `--export` and every name derived from them)
/// against the inputs and against each other, before anything is read or written.
///
/// # Errors
/// [`OutputError::NotRegular`] for an existing output that is not a regular file;
/// [`OutputError::IsAnInput`] for an output that is an input (same device and inode);
/// [`OutputError::SameFile`] for two outputs that are the same file.
pub fn check_outputs(inputs: &[PathBuf], outputs: &[(String, PathBuf)]) -> Result<(), OutputError> {
    let mut ids: Vec<(FileId, &PathBuf)> = Vec::new();
    for p in inputs {
        if let Some(id) = file_id(p) {
            ids.push((id, p));
        }
    }
    let input_ids: std::collections::HashMap<FileId, &PathBuf> = ids.into_iter().collect();
    let mut seen: Vec<(FileId, &str, &PathBuf)> = Vec::new();
    for (flag, path) in outputs {
        if let Ok(meta) = std::fs::metadata(path) {
            if let Some(kind) = special_kind(&meta) {
                return Err(OutputError::NotRegular {
                    flag: flag.clone(),
                    path: path.clone(),
                    kind,
                });
            }
        }
        let id = output_id(path);
        if let Some(input) = input_ids.get(&id) {
            return Err(OutputError::IsAnInput {
                flag: flag.clone(),
                path: path.clone(),
                input: (*input).clone(),
            });
        }
        if let Some((_, f, p)) = seen.iter().find(|(i, _, _)| *i == id) {
            return Err(OutputError::SameFile {
                flag: (*f).to_string(),
                path: (*p).clone(),
                other_flag: flag.clone(),
                other: path.clone(),
            });
        }
        seen.push((id, flag, path));
    }
    Ok(())
}

/// A file being written under a temporary name beside its target.
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    /// Its entry in the registry of temporary files in flight.
    id: u64,
    /// The temporary file (removed when dropped unless persisted).
    tmp: Option<BufWriter<tempfile::NamedTempFile>>,
}

impl AtomicFile {
    /// Creates a temporary file `.NAME.XXXXXX.tmp` (random, created exclusively) in the target's
    /// directory, with the target's permission bits when it exists.
    ///
    /// # Errors
    /// [`OutputError::NotAFileName`]; [`OutputError::NotRegular`] when the target exists and is
    /// not a regular file; [`OutputError::Write`] when the temporary file cannot be created.
    pub fn create(target: &Path) -> Result<AtomicFile, OutputError> {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .ok_or_else(|| OutputError::NotAFileName(target.to_path_buf()))?;
        let existing = match std::fs::metadata(target) {
            Ok(meta) => {
                if let Some(kind) = special_kind(&meta) {
                    return Err(OutputError::NotRegular {
                        flag: "output".into(),
                        path: target.to_path_buf(),
                        kind,
                    });
                }
                Some(meta.permissions())
            }
            Err(_) => None,
        };
        let prefix = format!(".{}.", name.to_string_lossy());
        let mut b = tempfile::Builder::new();
        b.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // A new file as File::create makes it (0666 less the umask); the exact bits of an
            // existing one are set below.
            b.permissions(std::fs::Permissions::from_mode(0o666));
        }
        // Created and registered under the registry's lock: a signal between the two cannot
        // miss it.
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let tmp = {
            let mut files = in_flight();
            let tmp = b
                .tempfile_in(&dir)
                .map_err(|e| OutputError::write(target, e))?;
            files.push((id, tmp.path().to_path_buf()));
            tmp
        };
        if let Some(perm) = existing {
            tmp.as_file()
                .set_permissions(perm)
                .map_err(|e| OutputError::write(target, e))?;
        }
        Ok(AtomicFile {
            target: target.to_path_buf(),
            id,
            tmp: Some(BufWriter::new(tmp)),
        })
    }

    /// The writer to render into.
    pub fn writer(&mut self) -> &mut dyn Write {
        self.tmp.as_mut().expect("writer used after commit")
    }

    /// Flushes, syncs and renames the temporary file over the target.
    ///
    /// # Errors
    /// [`OutputError::Write`] naming the target; the temporary file is removed.
    pub fn commit(mut self) -> Result<(), OutputError> {
        let out = self.tmp.take().expect("commit called once");
        let tmp = out
            .into_inner()
            .map_err(|e| OutputError::write(&self.target, e.into_error()))?;
        tmp.as_file()
            .sync_all()
            .map_err(|e| OutputError::write(&self.target, e))?;
        // Renamed and unregistered under the registry's lock (a signal waits for the rename).
        // On failure the PersistError holds the temporary file, removed as it is dropped.
        let mut files = in_flight();
        let done = tmp
            .persist(&self.target)
            .map(|_| ())
            .map_err(|e| OutputError::write(&self.target, e.error));
        files.retain(|(id, _)| *id != self.id);
        done
    }
}

impl Drop for AtomicFile {
    /// Removes the temporary file (unless committed) and its registry entry.
    fn drop(&mut self) {
        let mut files = in_flight();
        drop(self.tmp.take());
        files.retain(|(id, _)| *id != self.id);
    }
}

/// Writes `bytes` to `path` atomically.
///
/// # Errors
/// [`OutputError`] naming the path and the cause.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let mut f = AtomicFile::create(path)?;
    f.writer()
        .write_all(bytes)
        .map_err(|e| OutputError::write(path, e))?;
    f.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_whole_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("sizer-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("r.md");
        write_atomic(&p, b"hello").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"hello");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1);
        assert!(write_atomic(&dir.join("missing-dir/x.md"), b"x").is_err());
        // Dropped before commit: no target, no temporary.
        let mut f = AtomicFile::create(&dir.join("never.md")).unwrap();
        f.writer().write_all(b"partial").unwrap();
        drop(f);
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_registry_holds_each_temporary_in_flight_under_rayon() {
        use rayon::prelude::*;
        let dir = std::env::temp_dir().join(format!("sizer-inflight-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mine = || {
            let mut v: Vec<PathBuf> = in_flight_paths()
                .into_iter()
                .filter(|p| p.starts_with(&dir))
                .collect();
            v.sort();
            v
        };
        let files: Vec<AtomicFile> = (0..32)
            .into_par_iter()
            .map(|i| AtomicFile::create(&dir.join(format!("r{i}.md"))).unwrap())
            .collect();
        // Each open file is registered once, under its own temporary name, which exists.
        let held = mine();
        assert_eq!(held.len(), 32);
        assert!(held.windows(2).all(|w| w[0] != w[1]));
        assert!(held.iter().all(|p| p.exists()));
        // Half committed, half dropped, in parallel: nothing is left registered, and only the
        // 16 committed targets are on disk.
        files.into_par_iter().enumerate().for_each(|(i, mut f)| {
            f.writer().write_all(b"x").unwrap();
            if i % 2 == 0 {
                f.commit().unwrap();
            }
        });
        assert!(mine().is_empty());
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut want: Vec<String> = (0..32).step_by(2).map(|i| format!("r{i}.md")).collect();
        want.sort();
        assert_eq!(names, want);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
