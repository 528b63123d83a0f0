//! Output files are written atomically: a temporary file in the same directory, synced, then
//! renamed over the target. A failure (or a drop before [`AtomicFile::commit`]) leaves no partial
//! file behind. Reports are rendered straight into the temporary file, so a fleet's output is
//! never held in memory as a whole.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

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
}

impl OutputError {
    fn write(path: &Path, source: io::Error) -> Self {
        OutputError::Write {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// A file being written under a temporary name beside its target.
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    tmp: PathBuf,
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Creates the temporary file `.NAME.tmp-PID` in the target's directory.
    ///
    /// # Errors
    /// [`OutputError::NotAFileName`], or [`OutputError::Write`] when the temporary file cannot be
    /// created.
    pub fn create(target: &Path) -> Result<AtomicFile, OutputError> {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .ok_or_else(|| OutputError::NotAFileName(target.to_path_buf()))?;
        let tmp = dir.join(format!(
            ".{}.tmp-{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let f = File::create(&tmp).map_err(|e| OutputError::write(target, e))?;
        Ok(AtomicFile {
            target: target.to_path_buf(),
            tmp,
            out: Some(BufWriter::new(f)),
        })
    }

    /// The writer to render into.
    pub fn writer(&mut self) -> &mut dyn Write {
        self.out.as_mut().expect("writer used after commit")
    }

    /// Flushes, syncs and renames the temporary file over the target.
    ///
    /// # Errors
    /// [`OutputError::Write`] naming the target; the temporary file is removed.
    pub fn commit(mut self) -> Result<(), OutputError> {
        let out = self.out.take().expect("commit called once");
        let r = out
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all())
            .and_then(|_| std::fs::rename(&self.tmp, &self.target));
        r.map_err(|e| OutputError::write(&self.target, e))
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // Not committed (or the rename failed): leave nothing behind.
        self.out.take();
        let _ = std::fs::remove_file(&self.tmp);
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
}
