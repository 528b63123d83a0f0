//! `sizer completions SHELL` and `sizer man`: generated from the command line as built, so
//! every subcommand and option is in them; the bash script is valid bash and the man page is
//! clean roff (groff, with preconv for the non-ASCII characters, warns of nothing).

use std::process::Command;

use crate::common::{assert_exit, sizer, stdout};

/// The bash script defines its function, completes every subcommand and the analyze options,
/// and `bash -n` accepts it; zsh, fish and powershell scripts name the options too.
#[test]
fn completions_cover_the_command_line() {
    let o = sizer(&["completions", "bash"]);
    assert_exit(&o, 0);
    let bash = stdout(&o);
    assert!(
        bash.contains("_sizer()"),
        "{}",
        &bash[..200.min(bash.len())]
    );
    for word in [
        "analyze",
        "tiers",
        "completions",
        "man",
        "--size-on",
        "--capacity-file",
        "--export",
    ] {
        assert!(bash.contains(word), "bash completion lacks {word}");
    }
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("sizer.bash");
    std::fs::write(&f, &bash).unwrap();
    let check = Command::new("bash").arg("-n").arg(&f).output().unwrap();
    assert!(
        check.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&check.stderr)
    );
    for shell in ["zsh", "fish", "powershell"] {
        let o = sizer(&["completions", shell]);
        assert_exit(&o, 0);
        assert!(stdout(&o).contains("capacity-file"), "{shell}");
    }
    // An unknown shell is a usage error (exit 2) naming the choices.
    let o = sizer(&["completions", "tcsh"]);
    assert_exit(&o, 2);
    assert!(crate::common::stderr(&o).contains("bash"));
}

/// One page per command: `sizer(1)`, then `sizer-analyze(1)` … with every analyze option; groff
/// renders it without a warning.
#[test]
fn man_page_renders() {
    let o = sizer(&["man"]);
    assert_exit(&o, 0);
    let roff = stdout(&o);
    for th in [
        ".TH sizer 1",
        ".TH sizer-analyze 1",
        ".TH sizer-tiers 1",
        ".TH sizer-completions 1",
    ] {
        assert!(roff.contains(th), "no {th}");
    }
    for opt in ["capacity\\-file", "size\\-on", "headroom", "export"] {
        assert!(roff.contains(opt), "the man page lacks {opt}");
    }
    let Ok(check) = Command::new("groff")
        .args(["-k", "-man", "-Tutf8", "-ww", "-z"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(roff.as_bytes())?;
            c.wait_with_output()
        })
    else {
        eprintln!("SKIPPED: groff is not installed; the man page was not rendered");
        return;
    };
    assert!(check.status.success());
    let warnings = String::from_utf8_lossy(&check.stderr);
    assert!(warnings.trim().is_empty(), "groff: {warnings}");
}
