//! Issue 14, items 3 to 5: outputs never destroy, non-regular inputs are refused, and every exit
//! and message says what happened. Each reproducer of the issue is a test here (the binary runs
//! on the hand-made fixtures, in temporary directories of the `tempfile` crate).

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::{assert_exit, root, stderr, stdout};

const GOOD_19C: &str = "fixtures/awr/awrrpt_19c_small.html";
const IOSTAT: &str = "fixtures/iostat/x-12.3-flush-iso-N.txt";

/// Runs `sizer ARGS…` in `dir`.
fn sizer_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sizer"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run sizer")
}

fn tmp() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("outsafe-it-")
        .tempdir()
        .unwrap()
}

fn copy_19c(dir: &Path, name: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::copy(root().join(GOOD_19C), &p).unwrap();
    p
}

// ---- Outputs never destroy ----

#[test]
fn export_never_overwrites_an_input_named_like_its_host_series() {
    // `--export fleet.csv` writes the host series to fleet.hosts.csv when there are AWR reports
    // and OS logs: an input of that name is refused before anything is read.
    let d = tmp();
    copy_19c(d.path(), "a.html");
    std::fs::copy(root().join(IOSTAT), d.path().join("fleet.hosts.csv")).unwrap();
    let before = std::fs::read(d.path().join("fleet.hosts.csv")).unwrap();
    let o = sizer_in(
        d.path(),
        &[
            "analyze",
            "a.html",
            "fleet.hosts.csv",
            "--export",
            "fleet.csv",
        ],
    );
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("fleet.hosts.csv is one of the inputs"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read(d.path().join("fleet.hosts.csv")).unwrap(),
        before
    );
    assert!(!d.path().join("fleet.csv").exists());
}

#[test]
fn the_report_and_the_export_may_not_be_the_same_file() {
    let d = tmp();
    copy_19c(d.path(), "a.html");
    for (o_path, export) in [("out.csv", "out.csv"), ("out.csv", "./sub/../out.csv")] {
        std::fs::create_dir_all(d.path().join("sub")).unwrap();
        let o = sizer_in(
            d.path(),
            &["analyze", "a.html", "-o", o_path, "--export", export],
        );
        assert_exit(&o, 2);
        assert!(
            stderr(&o).contains("are the same file"),
            "{o_path} / {export}: {}",
            stderr(&o)
        );
        assert!(!d.path().join("out.csv").exists());
    }
}

#[test]
fn an_output_that_is_a_hard_link_to_an_input_is_refused() {
    let d = tmp();
    let input = copy_19c(d.path(), "a.html");
    std::fs::hard_link(&input, d.path().join("copy.md")).unwrap();
    let before = std::fs::read(&input).unwrap();
    let o = sizer_in(d.path(), &["analyze", "a.html", "-o", "copy.md"]);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("-o copy.md is one of the inputs (a.html)"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

#[cfg(unix)]
#[test]
fn an_existing_output_that_is_not_a_regular_file_is_refused() {
    use std::os::unix::fs::FileTypeExt;
    let d = tmp();
    copy_19c(d.path(), "a.html");
    let fifo = d.path().join("pipe");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    for (flag, target) in [
        ("-o", fifo.to_str().unwrap()),
        ("-o", "/dev/null"),
        ("--export", "/dev/null.csv"),
    ] {
        if flag == "--export" && !Path::new(target).exists() {
            continue;
        }
        let o = sizer_in(d.path(), &["analyze", "a.html", flag, target]);
        assert_exit(&o, 2);
        assert!(
            stderr(&o).contains("exists and is not a regular file"),
            "{target}: {}",
            stderr(&o)
        );
    }
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // A directory as output: refused too, and `-` is standard output.
    let o = sizer_in(d.path(), &["analyze", "a.html", "-o", "."]);
    assert_ne!(o.status.code(), Some(0));
    let o = sizer_in(d.path(), &["analyze", "a.html", "-o", "-"]);
    assert_exit(&o, 0);
    assert!(stdout(&o).contains("# Storage sizing: SIZDEMO"));
}

#[cfg(unix)]
#[test]
fn an_existing_output_keeps_its_permissions_and_no_temporary_is_left() {
    use std::os::unix::fs::PermissionsExt;
    let d = tmp();
    copy_19c(d.path(), "a.html");
    let out = d.path().join("report.md");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o600)).unwrap();
    let o = sizer_in(d.path(), &["analyze", "a.html", "-o", "report.md"]);
    assert_exit(&o, 0);
    let meta = std::fs::metadata(&out).unwrap();
    assert_eq!(meta.permissions().mode() & 0o7777, 0o600);
    assert!(std::fs::read_to_string(&out).unwrap().contains("SIZDEMO"));
    // A new file gets 0666 less the umask, as File::create makes it (not tempfile's 0600).
    let o = sizer_in(d.path(), &["analyze", "a.html", "-o", "new.md"]);
    assert_exit(&o, 0);
    std::fs::write(d.path().join("probe"), "").unwrap();
    let want = std::fs::metadata(d.path().join("probe"))
        .unwrap()
        .permissions()
        .mode()
        & 0o7777;
    std::fs::remove_file(d.path().join("probe")).unwrap();
    let got = std::fs::metadata(d.path().join("new.md"))
        .unwrap()
        .permissions()
        .mode()
        & 0o7777;
    assert_eq!(got, want, "{got:o} vs {want:o}");
    std::fs::remove_file(d.path().join("new.md")).unwrap();
    std::fs::remove_dir_all(d.path().join("new.charts")).unwrap();
    let list = |p: &std::path::Path| {
        let mut names: Vec<String> = std::fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    // The report's charts beside it (one bar chart for the one interval), no temporary.
    assert_eq!(list(d.path()), ["a.html", "report.charts", "report.md"]);
    assert_eq!(
        list(&d.path().join("report.charts")),
        ["SIZDEMO_DB_Id_3141592653-iops.svg"]
    );
}

#[cfg(unix)]
#[test]
fn planted_links_at_the_old_temporary_names_are_never_followed() {
    // The old temporary name was `.NAME.tmp-PID`: a link planted there for this process was
    // followed and the victim overwritten. The temporary file is now random and created with
    // O_EXCL, so the link and its victim stay as they were.
    let d = tmp();
    let victim = d.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let target = d.path().join("r.md");
    let planted = d.path().join(format!(".r.md.tmp-{}", std::process::id()));
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    sizer::output::write_atomic(&target, b"report").unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), b"report");
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert!(std::fs::symlink_metadata(&planted)
        .unwrap()
        .file_type()
        .is_symlink());
    // Dropped before commit (a failure while rendering): no target, no temporary.
    let mut f = sizer::output::AtomicFile::create(&d.path().join("never.md")).unwrap();
    f.writer().write_all(b"partial").unwrap();
    drop(f);
    let n = std::fs::read_dir(d.path()).unwrap().count();
    assert_eq!(n, 3, "victim, planted link, r.md");
}

/// The temporary files (`.NAME.XXXXXX.tmp`) in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') && n.ends_with(".tmp"))
        .collect()
}

#[cfg(unix)]
#[test]
fn a_signal_removes_the_temporary_output_and_leaves_the_target_as_it_was() {
    // A signal ended the process without running destructors, so the temporary file of `-o`
    // stayed behind. Here sizer reads an AWR report from a pipe kept open (half of it
    // written), so it is still reading when the signal comes; the report's temporary file
    // exists by then (it is created before the inputs are read). Each signal ends it with
    // 128 + its number and removes the temporary file; an existing target keeps its bytes,
    // and a new one is not created.
    let half = {
        let b = std::fs::read(root().join(GOOD_19C)).unwrap();
        b[..b.len() / 2].to_vec()
    };
    for (sig, code, existing) in [("INT", 130, true), ("TERM", 143, false), ("HUP", 129, true)] {
        let d = tmp();
        let out = d.path().join("report.md");
        if existing {
            std::fs::write(&out, "the old report").unwrap();
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_sizer"))
            .args(["analyze", "-", "-o", "report.md"])
            .current_dir(d.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut sin = child.stdin.take().unwrap();
        sin.write_all(&half).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while temporaries(d.path()).is_empty() {
            assert!(
                std::time::Instant::now() < deadline,
                "SIG{sig}: no temporary file after 30 s"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(temporaries(d.path()).len(), 1, "SIG{sig}");
        let killed = Command::new("kill")
            .args([&format!("-{sig}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let o = child.wait_with_output().unwrap();
        drop(sin);
        assert_eq!(
            o.status.code(),
            Some(code),
            "SIG{sig}: {:?} {}",
            o.status,
            stderr(&o)
        );
        assert_eq!(temporaries(d.path()), Vec::<String>::new(), "SIG{sig}");
        if existing {
            assert_eq!(std::fs::read_to_string(&out).unwrap(), "the old report");
        } else {
            assert!(!out.exists(), "SIG{sig}: {} was created", out.display());
        }
        assert_eq!(
            std::fs::read_dir(d.path()).unwrap().count(),
            usize::from(existing)
        );
    }
}

#[test]
fn an_output_that_cannot_be_written_fails_before_the_inputs_are_read() {
    // The temporary file is created first: a missing directory fails at once, even while
    // standard input is still open (the pipe is never written to nor closed here).
    let d = tmp();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sizer"))
        .args(["analyze", "-", "-o", "missing/report.md"])
        .current_dir(d.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let sin = child.stdin.take().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("sizer waited for standard input before failing on its output");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let o = child.wait_with_output().unwrap();
    drop(sin);
    assert_exit(&o, 1);
    assert!(
        stderr(&o).contains("cannot write missing/report.md"),
        "{}",
        stderr(&o)
    );
}

use std::io::Write as _;

// ---- Non-regular inputs and standard input ----

/// Runs sizer with `stdin` piped from `bytes`.
fn sizer_stdin(args: &[&str], bytes: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sizer"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut sin = child.stdin.take().unwrap();
    let data = bytes.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = sin.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

#[test]
fn standard_input_is_read_once_as_dash_or_dev_stdin() {
    // `cat x | sizer analyze /dev/stdin` failed: the path was opened twice (detect, then read).
    let bytes = std::fs::read(root().join(GOOD_19C)).unwrap();
    for name in ["-", "/dev/stdin"] {
        let o = sizer_stdin(&["analyze", "--format", "json", name], &bytes);
        assert_exit(&o, 0);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["reports"][0]["source"]["file"], name);
        // The fixture's hand figure: (8,640,432 + 2,160,324 + 540,036) / 3,600 = 3,150.22.
        let req = v["reports"][0]["workload"]["required_iops"]["value"]
            .as_f64()
            .unwrap();
        assert!((req - 3_150.22).abs() < 0.005, "{name}: {req}");
    }
    // Standard input redirected from a file is that file: -o naming it is refused.
    let d = tmp();
    let input = copy_19c(d.path(), "a.html");
    let o = Command::new(env!("CARGO_BIN_EXE_sizer"))
        .args(["analyze", "-", "-o", "a.html"])
        .current_dir(d.path())
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("is one of the inputs"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read(&input).unwrap(),
        std::fs::read(root().join(GOOD_19C)).unwrap()
    );
    // An OS log on stdin too: iostat's second report, 200 + 100 + 10 = 310 IOPS.
    let bytes = std::fs::read(root().join(IOSTAT)).unwrap();
    let o = sizer_stdin(&["analyze", "--format", "json", "-"], &bytes);
    assert_exit(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["hosts"][0]["statistics"]["total_iops"]["avg"], 310.0);
}

#[cfg(unix)]
#[test]
fn a_fifo_and_dev_zero_are_refused_at_once() {
    let d = tmp();
    let fifo = d.path().join("f.txt");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    for p in [fifo.to_str().unwrap(), "/dev/zero"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sizer"))
            .args(["analyze", p])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // It used to block forever (FIFO) or grow without limit (/dev/zero).
        let t0 = std::time::Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if t0.elapsed() > std::time::Duration::from_secs(30) {
                let _ = child.kill();
                panic!("sizer analyze {p} did not return within 30 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let o = child.wait_with_output().unwrap();
        assert_eq!(status.code(), Some(1), "{p}");
        assert!(
            stderr(&o).contains(&format!("{p}: not a regular file")),
            "{p}: {}",
            stderr(&o)
        );
    }
    // Found in a directory, a FIFO is skipped unopened and the report beside it is read.
    copy_19c(d.path(), "good.html");
    let o = sizer_in(d.path(), &["analyze", "--format", "json", "."]);
    assert_exit(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["reports"][0]["database"]["db_name"], "SIZDEMO");
    assert_eq!(v["skipped"][0]["file"], "./f.txt");
    assert!(v["skipped"][0]["reason"]
        .as_str()
        .unwrap()
        .starts_with("not a regular file (FIFO)"));
}

// ---- Exits and messages ----

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(bytes).unwrap();
    z.finish().unwrap()
}

#[test]
fn a_report_that_cannot_be_read_in_a_directory_is_a_failure_not_a_skip() {
    let report = std::fs::read(root().join(GOOD_19C)).unwrap();
    let gz = gzip(&report);
    // (file name, bytes, what stderr says): a truncated gzip stream, a `.gz` that is no gzip, an
    // empty `.html`.
    let cases: [(&str, Vec<u8>, &str); 3] = [
        ("cut.html.gz", gz[..gz.len() / 2].to_vec(), "cannot"),
        (
            "fake.html.gz",
            b"garbage".to_vec(),
            "not a recognised report",
        ),
        ("empty.html", Vec::new(), "the file is empty"),
    ];
    for (name, bytes, why) in cases {
        let d = tmp();
        copy_19c(d.path(), "good.html");
        std::fs::write(d.path().join(name), bytes).unwrap();
        let o = sizer_in(d.path(), &["analyze", "."]);
        assert_exit(&o, 1);
        let err = stderr(&o);
        assert!(
            err.contains(&format!("{name}: ")) && err.contains(why),
            "{name}: {err}"
        );
        // The good report is still analysed.
        assert!(stdout(&o).contains("# Storage sizing: SIZDEMO"), "{name}");
    }
    // A readable text that is no report is still only skipped.
    let d = tmp();
    copy_19c(d.path(), "good.html");
    std::fs::write(d.path().join("notes.txt"), "remember the milk\n").unwrap();
    let o = sizer_in(d.path(), &["analyze", "."]);
    assert_exit(&o, 0);
    assert!(stderr(&o).contains("skipped 1 file(s)"), "{}", stderr(&o));
}

fn utf16(text: &str, bom: bool, le: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if bom {
        out.extend_from_slice(if le { b"\xFF\xFE" } else { b"\xFE\xFF" });
    }
    for u in text.encode_utf16() {
        out.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
    }
    out
}

#[test]
fn utf16_reports_and_logs_are_decoded_with_or_without_a_byte_order_mark() {
    let awr = std::fs::read_to_string(root().join(GOOD_19C)).unwrap();
    let iostat = std::fs::read_to_string(root().join(IOSTAT)).unwrap();
    for (bom, le) in [(true, true), (false, true), (true, false), (false, false)] {
        let d = tmp();
        std::fs::write(d.path().join("r.html"), utf16(&awr, bom, le)).unwrap();
        // A streamed OS log: it was detected, then read raw and refused.
        std::fs::write(d.path().join("io.txt"), utf16(&iostat, bom, le)).unwrap();
        let o = sizer_in(d.path(), &["analyze", "--format", "json", "."]);
        assert_exit(&o, 0);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let what = format!("bom {bom}, le {le}");
        assert_eq!(v["skipped"].as_array().unwrap().len(), 0, "{what}: {v}");
        let r = &v["reports"][0];
        assert_eq!(r["database"]["db_name"], "SIZDEMO", "{what}");
        let enc = if le { "UTF-16LE" } else { "UTF-16BE" };
        assert_eq!(r["source"]["encoding"], enc, "{what}");
        let req = r["workload"]["required_iops"]["value"].as_f64().unwrap();
        assert!((req - 3_150.22).abs() < 0.005, "{what}: {req}");
        // 200 + 100 + 10 IOPS in the log's one interval report.
        assert_eq!(
            v["hosts"][0]["statistics"]["total_iops"]["avg"], 310.0,
            "{what}"
        );
    }
}

#[test]
fn could_not_size_names_the_files_and_the_reason() {
    // Was "sizer: could not size (no origin) fixtures/vsan/…" with no reason.
    let f = "fixtures/vsan/get-vsanstat-en-US-utf8.csv";
    let o = crate::common::sizer(&["analyze", f]);
    assert_exit(&o, 1);
    let line = stderr(&o)
        .lines()
        .find(|l| l.contains("could not size"))
        .map(str::to_string)
        .unwrap_or_default();
    assert!(line.contains(f), "{line}");
    assert!(line.contains(": cannot size: "), "{line}");
}

#[cfg(unix)]
#[test]
fn symbolic_links_in_a_directory_are_followed_only_with_follow() {
    let outside = tmp();
    copy_19c(outside.path(), "secret.html");
    let d = tmp();
    std::os::unix::fs::symlink(
        outside.path().join("secret.html"),
        d.path().join("link.html"),
    )
    .unwrap();
    std::os::unix::fs::symlink(outside.path(), d.path().join("dirlink")).unwrap();
    let o = sizer_in(d.path(), &["analyze", "--format", "json", "."]);
    assert_exit(&o, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["reports"].as_array().unwrap().len(), 0);
    let skipped = v["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 2, "{v}");
    for s in skipped {
        assert!(
            s["reason"]
                .as_str()
                .unwrap()
                .contains("symbolic link, not followed"),
            "{s}"
        );
    }
    for flag in ["-L", "--follow"] {
        let o = sizer_in(d.path(), &["analyze", "--format", "json", flag, "."]);
        assert_exit(&o, 0);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        // The same report reached twice (file link and directory link) counts once.
        assert_eq!(v["reports"].as_array().unwrap().len(), 1, "{flag}");
        assert_eq!(v["reports"][0]["database"]["db_name"], "SIZDEMO");
    }
    // A link named on the command line is followed.
    let o = sizer_in(d.path(), &["analyze", "link.html"]);
    assert_exit(&o, 0);
}

#[test]
fn control_characters_in_file_names_are_escaped_on_the_terminal() {
    let d = tmp();
    let name = "evil\u{1b}[2J\u{7}\rname.html";
    copy_19c(d.path(), name);
    std::fs::write(d.path().join("bad\u{1b}]0;x\u{7}.html"), "").unwrap();
    std::fs::write(d.path().join("nl\nname.html"), "").unwrap();
    let o = sizer_in(d.path(), &["analyze", "."]);
    assert_exit(&o, 1);
    for (what, text) in [("stdout", stdout(&o)), ("stderr", stderr(&o))] {
        assert!(
            !text.contains(['\u{1b}', '\u{7}', '\r']),
            "{what} has a raw control character: {text:?}"
        );
    }
    let md = stdout(&o);
    assert!(md.contains(r"evil\u{1b}[2J\u{7}\rname.html"), "{md}");
    assert!(stderr(&o).contains(r"bad\u{1b}]0;x\u{7}.html: the file is empty"));
    assert!(stderr(&o).contains(r"nl\nname.html: the file is empty"));
    // A host name from a log's banner: escaped in the Markdown too.
    let log = std::fs::read_to_string(root().join(IOSTAT))
        .unwrap()
        .replace("(db01.example.com)", "(db01\u{7}\u{9b}.example.com)");
    std::fs::write(d.path().join("io.txt"), log).unwrap();
    let o = sizer_in(d.path(), &["analyze", "io.txt"]);
    assert_exit(&o, 0);
    assert!(!stdout(&o).contains(['\u{7}', '\u{9b}']));
    assert!(
        stdout(&o).contains(r"db01\u{7}\u{9b}.example.com"),
        "{}",
        stdout(&o)
    );
    // JSON keeps the name as it is (serde escapes it as JSON does).
    let o = sizer_in(d.path(), &["analyze", "--format", "json", name]);
    assert_exit(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["reports"][0]["source"]["file"], name);
}

#[test]
fn csv_export_text_cells_cannot_be_formulas() {
    // The source column holds the path as given: a file named like a formula.
    let d = tmp();
    copy_19c(d.path(), "=HYPERLINK(1).html");
    copy_19c(d.path(), "-2+3.html");
    let o = sizer_in(
        d.path(),
        &["analyze", "=HYPERLINK(1).html", "--export", "m.csv"],
    );
    assert_exit(&o, 0);
    let csv = std::fs::read_to_string(d.path().join("m.csv")).unwrap();
    let row = csv.lines().nth(1).unwrap();
    assert!(row.starts_with("'=HYPERLINK(1).html,"), "{row}");
    assert!(!csv.lines().any(|l| l.starts_with('=')));
    // Numbers are numbers: the value of `physical read total IO requests` (8,640,432) is not
    // quoted, and a text cell that looks like a negative number is neutralised.
    assert!(
        csv.lines()
            .any(|l| l.contains("physical read total IO requests") && l.contains(",8640432")),
        "{csv}"
    );
    let o = sizer_in(
        d.path(),
        &["analyze", "--export", "n.csv", "--", "-2+3.html"],
    );
    assert_exit(&o, 0);
    let csv = std::fs::read_to_string(d.path().join("n.csv")).unwrap();
    assert!(csv.lines().nth(1).unwrap().starts_with("'-2+3.html,"));
}

#[test]
fn json_is_byte_identical_between_runs() {
    // Summing a cluster's entities in hash order made the last digits differ between runs.
    let mut dirs = vec![root().join("fixtures")];
    let corpus = root().join("../shared/corpus/vsan");
    if corpus.is_dir() {
        dirs.push(corpus);
    } else {
        crate::common::corpus_absent(&corpus);
    }
    for dir in dirs {
        let d = dir.to_str().unwrap();
        let first = crate::common::sizer(&["analyze", "--format", "json", d]).stdout;
        assert!(first.len() > 1000);
        for j in ["1", "2", "3"] {
            let again = crate::common::sizer(&["analyze", "-j", j, "--format", "json", d]).stdout;
            assert!(first == again, "{d}: JSON differs between runs (-j {j})");
        }
    }
}
