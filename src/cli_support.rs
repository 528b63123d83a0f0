//! Binary-only support of `main.rs` (this module is not part of the `sizer` library): the
//! command line's value parsers and rule loading, the `completions` and `man` subcommands (which
//! render the command line that `main.rs` declares), the charts written beside a Markdown report,
//! and the signal handler that removes temporary output files.
//!
//! Both subcommands write to stdout and take the clap definition as a type parameter, so they
//! always describe the command line as built, never a copy of it.

use std::io::Write;

use clap::CommandFactory;

use std::path::{Path, PathBuf};

use sizer::rules::RuleSet;

use crate::Exit;
use sizer::output;
use sizer::report::chart_files::{chart_files, charts_dir, ChartFile};

/// The charts of a Markdown report written to a file: drawn before the report is rendered (its
/// links name them), written after it.
pub struct Charts {
    /// The charts directory, beside the report (`report.charts`).
    pub dir: PathBuf,
    /// Its name, as the report's links give it.
    pub dir_name: String,
    /// The charts.
    pub files: Vec<ChartFile>,
}

/// Draws the run's charts for the report at `report`, and checks that no chart file would be
/// an input or a special file.
///
/// # Errors
/// A drawing error, or an output check error, as text.
pub fn charts_for(
    run: &sizer::pipeline::Run,
    rules: &sizer::rules::RuleSet,
    report: &Path,
    inputs: &[PathBuf],
) -> Result<Charts, String> {
    let files = chart_files(run, rules.sizing().report_card.as_ref())?;
    let dir = charts_dir(report);
    let dir_name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let outputs: Vec<(String, PathBuf)> = files
        .iter()
        .map(|f| ("-o (chart)".to_string(), dir.join(&f.file)))
        .collect();
    output::check_outputs(inputs, &outputs).map_err(|e| e.to_string())?;
    Ok(Charts {
        dir,
        dir_name,
        files,
    })
}

impl Charts {
    /// Creates the directory and writes each chart atomically; `None` when there is none.
    ///
    /// # Errors
    /// The directory or a file cannot be written.
    pub fn write(&self) -> Result<Option<&Path>, output::OutputError> {
        if self.files.is_empty() {
            return Ok(None);
        }
        std::fs::create_dir_all(&self.dir).map_err(|source| output::OutputError::Write {
            path: self.dir.clone(),
            source,
        })?;
        for f in &self.files {
            output::write_atomic(&self.dir.join(&f.file), f.svg.as_bytes())?;
        }
        Ok(Some(&self.dir))
    }
}

/// `sizer completions SHELL`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for. Install, e.g. for bash:
    /// `sizer completions bash > ~/.local/share/bash-completion/completions/sizer`; zsh: a file
    /// `_sizer` in a directory of `$fpath`; fish: `~/.config/fish/completions/sizer.fish`.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Writes the completion script for `shell` (clap_complete) to stdout.
pub fn completions<C: CommandFactory>(shell: clap_complete::Shell) -> Exit {
    let mut cmd = C::command();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    clap_complete::generate(shell, &mut cmd, "sizer", &mut out);
    finish(out.flush())
}

/// Writes the man page (section 1, roff, clap_mangen) of `sizer` and of each subcommand to
/// stdout: the top page first, then one page per subcommand (`sizer-analyze(1)`, …), as
/// `man -l -` reads them one after another.
pub fn man<C: CommandFactory>() -> Exit {
    let cmd = C::command();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut r = clap_mangen::Man::new(cmd.clone()).render(&mut out);
    for sub in cmd.get_subcommands() {
        if r.is_err() {
            break;
        }
        let title = format!("sizer-{}", sub.get_name());
        r = clap_mangen::Man::new(sub.clone())
            .title(title)
            .render(&mut out);
    }
    finish(r.and_then(|_| out.flush()))
}

fn finish(r: std::io::Result<()>) -> Exit {
    match r {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("sizer: writing to stdout: {e}");
            Exit::Failure
        }
        _ => Exit::Success,
    }
}

/// On `SIGINT`, `SIGTERM` or `SIGHUP`, removes the temporary output files in flight and exits
/// with 128 + the signal number (130 for Ctrl-C), from a thread of its own
/// ([`output::remove_in_flight_and_exit`]). Without a handler the signal would end the process
/// at once and leave them (`.NAME.XXXXXX.tmp`). If the handler cannot be installed the signals
/// keep their default action.
pub fn remove_temporaries_on_signal() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    output::remove_in_flight_and_exit(128 + sig);
                }
            });
        if spawned.is_err() {
            eprintln!("sizer: cannot start the signal thread; an interrupted run may leave a temporary file");
        }
    }
}

/// `--capacity`: GiB, or a number with a unit (KiB..PiB = 2^10.., KB..PB = 10^3..), in GiB
/// ([`sizer::capacity::parse_size`]).
pub fn parse_capacity(s: &str) -> Result<f64, String> {
    sizer::capacity::parse_size(s)
}

/// A byte size: plain bytes (`1000`), or a number with a unit: `K`, `M`, `G`, `T` (also `KiB`…
/// `TiB`) are powers of 1024, `KB`, `MB`, `GB`, `TB` powers of 1000 (`4G`, `1.5GiB`, `500MB`).
pub fn parse_bytes_arg(s: &str) -> Result<u64, String> {
    let (v, unit) = sizer::capacity::number_and_unit(s)
        .ok_or_else(|| format!("expected a size such as 1000, 500M or 64G, got \"{s}\""))?;
    let per = match unit.as_str() {
        "" => 1.0,
        u => sizer::capacity::unit_bytes(u)
            .ok_or_else(|| format!("unknown unit \"{u}\" (use K, M, G, T or KB, MB, GB, TB)"))?,
    };
    let bytes = v * per;
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 {
        return Err(format!("must be a size of at least 1 byte, got \"{s}\""));
    }
    Ok(bytes as u64)
}

/// The rule set: the file or directory given, else the built-in one.
///
/// # Errors
/// The rules' load error, as text.
pub fn load_rules(path: Option<&Path>) -> Result<RuleSet, String> {
    load_rules_limited(path, sizer::rules::DEFAULT_MAX_RULES_SIZE)
}

/// [`load_rules`] with a cap on the rules file's size, bytes.
///
/// # Errors
/// As [`load_rules`].
pub fn load_rules_limited(path: Option<&Path>, max: u64) -> Result<RuleSet, String> {
    match path {
        Some(p) => RuleSet::load_limited(p, max),
        None => RuleSet::builtin(),
    }
    .map_err(|e| e.to_string())
}

/// The paths, comma-separated, as given.
pub fn names(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
