//! A real DuckDB for the tests that run the documented queries (`docs/export.md`) against
//! sizer's Parquet export.
//!
//! The tests need nothing installed by hand: the first caller creates a Python virtual environment
//! under the target directory (`target/duckdb-venv`) and installs the pinned DuckDB wheel from PyPI
//! into it ([`DUCKDB_VERSION`]); later callers and later runs reuse it. When the environment
//! cannot be made (no `python3`, no network) the test says SKIPPED, and under `CI` it fails.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The DuckDB release the documented queries are checked with (PyPI `duckdb`).
pub const DUCKDB_VERSION: &str = "2.0.1";

/// The venv's Python interpreter with `duckdb` importable, or `None` (after saying SKIPPED)
/// when it cannot be made outside CI.
///
/// # Panics
/// When `CI` is set and the environment cannot be made.
pub fn python() -> Option<PathBuf> {
    static PY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match PY.get_or_init(make_venv) {
        Ok(p) => Some(p.clone()),
        Err(why) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set but DuckDB could not be installed: {why}"
            );
            eprintln!("SKIPPED: DuckDB is not available ({why})");
            None
        }
    }
}

/// The target directory of this build (`CARGO_TARGET_DIR`, else `target/` in the workspace).
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

fn make_venv() -> Result<PathBuf, String> {
    let dir = target_dir().join("duckdb-venv");
    let py = dir.join("bin").join("python");
    let ready = dir.join(format!("duckdb-{DUCKDB_VERSION}.ok"));
    if ready.is_file() && py.is_file() {
        return Ok(py);
    }
    // A directory lock: test binaries of one `cargo test` may start this at the same moment.
    let lock = target_dir().join("duckdb-venv.lock");
    std::fs::create_dir_all(target_dir()).map_err(|e| format!("create the target dir: {e}"))?;
    let mut waited = 0;
    while std::fs::create_dir(&lock).is_err() {
        if ready.is_file() {
            return Ok(py);
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
        waited += 1;
        if waited > 600 {
            let _ = std::fs::remove_dir(&lock);
        }
    }
    let result = (|| {
        if !py.is_file() {
            run(Command::new("python3").arg("-m").arg("venv").arg(&dir))?;
        }
        run(Command::new(&py).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            &format!("duckdb=={DUCKDB_VERSION}"),
        ]))?;
        run(Command::new(&py).args(["-c", "import duckdb"]))?;
        std::fs::write(&ready, DUCKDB_VERSION).map_err(|e| format!("mark the venv ready: {e}"))?;
        Ok(py.clone())
    })();
    let _ = std::fs::remove_dir(&lock);
    result
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?} exited {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Runs `sql` in DuckDB (in-memory, working directory `cwd`) and gives the result rows as JSON
/// objects (column name → value; timestamps as text), or `None` when DuckDB is unavailable
/// outside CI.
///
/// # Panics
/// When the query fails, or under `CI` when DuckDB is unavailable.
pub fn query(sql: &str, cwd: &Path) -> Option<Vec<serde_json::Value>> {
    let py = python()?;
    let script = r#"
import sys, json, duckdb
con = duckdb.connect()
cur = con.execute(sys.stdin.read())
cols = [d[0] for d in cur.description]
rows = [dict(zip(cols, r)) for r in cur.fetchall()]
print(json.dumps(rows, default=str))
"#;
    let mut child = Command::new(py)
        .args(["-c", script])
        .current_dir(cwd)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start python");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(sql.as_bytes())
        .expect("write the query");
    let out = child.wait_with_output().expect("python runs");
    assert!(
        out.status.success(),
        "DuckDB query failed: {}\n{sql}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).expect("JSON rows"))
}

/// The `n`-th (0-based) ```` ```sql ```` block of a Markdown document under `docs/`.
///
/// # Panics
/// When the document or the block is missing.
pub fn doc_sql(doc: &str, n: usize) -> String {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs").join(doc))
            .expect("read the doc");
    text.split("```sql\n")
        .nth(n + 1)
        .and_then(|b| b.split("\n```").next())
        .unwrap_or_else(|| panic!("docs/{doc} has no sql block {n}"))
        .to_string()
}
