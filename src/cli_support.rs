//! Binary-only support of `main.rs` (this module is not part of the `sizer` library): the
//! `completions` and `man` subcommands, which render the command line that `main.rs` declares,
//! and the signal handler that removes temporary output files.
//!
//! Both subcommands write to stdout and take the clap definition as a type parameter, so they
//! always describe the command line as built, never a copy of it.

use std::io::Write;

use clap::CommandFactory;

use std::path::{Path, PathBuf};

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
